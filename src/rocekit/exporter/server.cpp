#include "rocekit/exporter/server.hpp"

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/listener.h>
#include <event2/keyvalq_struct.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <memory>
#include <unordered_map>

#include "rocekit/core/text.hpp"

namespace rk::exporter {

Result<std::pair<std::string, int>> parse_listen_address(std::string_view text) {
  auto bad = [&](std::string why) -> Result<std::pair<std::string, int>> {
    return unexpected(ErrorKind::malformed_input, "--listen: " + why, std::string(text));
  };
  std::size_t colon = text.rfind(':');
  if (colon == std::string_view::npos) return bad("expected ADDR:PORT, e.g. 127.0.0.1:9857");
  std::string host(text.substr(0, colon));
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  else if (host.find(':') != std::string::npos) return bad("an IPv6 address must be in brackets: [::1]:9857");
  if (host.empty()) host = "0.0.0.0";
  std::optional<std::uint64_t> port = text::parse_uint(text.substr(colon + 1));
  if (!port || *port < 1 || *port > 65535) return bad("port must be 1..65535");
  return std::pair<std::string, int>{host, static_cast<int>(*port)};
}

namespace {

constexpr int kListenBacklog = 1024;
constexpr ev_ssize_t kMaxHeadersBytes = 8192;
constexpr ev_ssize_t kMaxBodyBytes = 4096;  // scrapes have no body
constexpr const char* kMetricsType = "text/plain; version=0.0.4; charset=utf-8";
constexpr const char* kIndexPage =
    "<html><head><title>rocekit exporter</title></head><body><h1>rocekit exporter</h1>"
    "<p><a href=\"/metrics\">Metrics</a></p></body></html>\n";
constexpr const char* kNotFound = "404 page not found\n";
constexpr const char* kBusy = "503 too many responses in flight, retry\n";
/// Responses being written at once; past it a request gets 503 (each holds its body: 130 KB on
/// the 8-NIC tree, so at most ~33 MB).
constexpr std::size_t kMaxResponsesInFlight = 256;
/// A response not fully written after this long has its connection closed: a client reading a
/// byte every few seconds would otherwise keep it (evhttp's timeout restarts on any progress).
constexpr int kResponseDeadlineSeconds = 30;
/// After kAcceptsPerRound accepts, accepting resumes when the loop is idle or after this long,
/// whichever comes first (busy keep-alive clients must not keep new ones out).
constexpr timeval kAcceptPause{0, 50000};
// Scheduling, so that a burst of N concurrent scrapes neither holds N responses in memory nor
// lets an accepted request wait in the loop past the connection timeout (the timer starts at
// accept; a scrape costs milliseconds of loop time). Priorities: 0 = the stop event and
// connections writing a response; 1 = accepting and reading requests, at most kReadsPerPass
// callbacks per pass before the loop polls again and sends what is ready; 2 = re-enabling accept.
// After kAcceptsPerRound connections the listener is paused until every accepted request has been
// read (the priority-2 event runs only when queues 0 and 1 are empty); the rest wait in the
// kernel's backlog, where no timer runs.
constexpr int kPriorities = 3;
constexpr int kWritePriority = 0;
constexpr int kReadPriority = 1;
constexpr int kResumeAcceptPriority = 2;
constexpr int kReadsPerPass = 8;
constexpr int kAcceptsPerRound = 64;
/// Pause after an accept() error such as EMFILE (out of descriptors) before trying again.
constexpr timeval kAcceptBackoff{0, 100000};

/// libevent logs per-connection trouble (resets, accept errors) to stderr by default: a slow or
/// broken client must not fill the exporter's log.
void discard_libevent_log(int /*severity*/, const char* /*msg*/) {}

/// "host:port", bracketing an IPv6 address.
std::string address_text(const std::string& host, int port) {
  bool v6 = host.find(':') != std::string::npos;
  return (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

}  // namespace

struct Server::Impl {
  Exporter& exporter;
  ServerOptions opt;
  event_base* base = nullptr;
  evhttp* http = nullptr;
  event* stop_event = nullptr;
  event* resume_accept = nullptr;  ///< priority kResumeAcceptPriority, activated by hand
  event* resume_timer = nullptr;   ///< or kAcceptPause after the pause, whichever comes first
  evhttp_bound_socket* bound_socket = nullptr;
  int accepted_this_round = 0;
  struct InFlight;
  std::unordered_map<evhttp_connection*, std::unique_ptr<InFlight>> in_flight;
  int stop_fd = -1;  ///< eventfd: stop() writes, the loop's callback breaks the loop
  std::atomic<bool> stopped{false};

  Impl(Exporter& e, ServerOptions o) : exporter(e), opt(std::move(o)) {}

  static void on_stop(evutil_socket_t fd, short /*what*/, void* arg) {
    std::uint64_t n = 0;
    (void)!::read(fd, &n, sizeof n);
    event_base_loopbreak(static_cast<Impl*>(arg)->base);
  }

  /// A response being written: freed at its completion, at its connection's close, or by the
  /// deadline, which frees the connection of a client that reads too slowly.
  struct InFlight {
    Impl* im = nullptr;
    evhttp_connection* conn = nullptr;
    event* deadline = nullptr;
    ~InFlight() {
      if (deadline) event_free(deadline);
    }
  };

  void finish(evhttp_connection* conn) { in_flight.erase(conn); }

  static void on_connection_close(evhttp_connection* conn, void* arg) { static_cast<Impl*>(arg)->finish(conn); }

  static void on_deadline(evutil_socket_t, short, void* arg) {
    auto* f = static_cast<InFlight*>(arg);
    Impl* im = f->im;
    evhttp_connection* conn = f->conn;
    im->finish(conn);         // frees f
    evhttp_connection_free(conn);  // its close callback finds nothing left to finish
  }

  void reply(evhttp_request* req, int code, const char* reason, const char* type, const char* body,
             std::size_t size) {
    evkeyvalq* headers = evhttp_request_get_output_headers(req);
    evhttp_add_header(headers, "Content-Type", type);
    // Also for HTTP/1.0 (evhttp adds it only for 1.1), so any client can tell a cut response;
    // for HEAD, the length of the GET body evhttp does not send.
    evhttp_add_header(headers, "Content-Length", std::to_string(size).c_str());
    if (evhttp_request_get_command(req) != EVHTTP_REQ_HEAD)
      evbuffer_add(evhttp_request_get_output_buffer(req), body, size);
    // Send this response before reading more requests (see kReadsPerPass); back to the read
    // priority once it is written (a keep-alive connection's next request queues like others).
    set_priority(req, kWritePriority);
    evhttp_request_set_on_complete_cb(
        req,
        [](evhttp_request* r, void* arg) {
          set_priority(r, kReadPriority);
          if (evhttp_connection* c = evhttp_request_get_connection(r)) static_cast<Impl*>(arg)->finish(c);
        },
        this);
    bufferevent* bev = nullptr;
    evhttp_connection* conn = evhttp_request_get_connection(req);
    if (conn) {
      bev = evhttp_connection_get_bufferevent(conn);
      evhttp_connection_set_closecb(conn, &Impl::on_connection_close, this);
      auto f = std::make_unique<InFlight>();
      f->im = this;
      f->conn = conn;
      f->deadline = evtimer_new(base, &Impl::on_deadline, f.get());
      if (f->deadline) {
        timeval tv{kResponseDeadlineSeconds, 0};
        evtimer_add(f->deadline, &tv);
      }
      in_flight[conn] = std::move(f);
    }
    evhttp_send_reply(req, code, reason, nullptr);
    // evhttp_send_reply turns reading on to notice a close while it writes; a client that
    // half-closes after its request (`nc -N`, shutdown(SHUT_WR)) then had its response cut off
    // after the first chunk. Stop reading until the response is out (the connection is freed
    // only from the event loop, so `bev` is still valid here): evhttp reads again for the next
    // request of a keep-alive connection, a write error still ends the connection, and the
    // deadline still drops a client that reads too slowly.
    if (bev) bufferevent_disable(bev, EV_READ);
  }

  /// Best effort: fails (harmlessly) while one of the connection's events is queued to run.
  static void set_priority(evhttp_request* req, int priority) {
    if (evhttp_connection* conn = evhttp_request_get_connection(req))
      if (bufferevent* bev = evhttp_connection_get_bufferevent(conn))
        (void)bufferevent_priority_set(bev, priority);
  }

  /// evhttp's bufferevent factory, called once per accepted connection: the default socket
  /// bufferevent at the read priority, and the accept pause (see kAcceptsPerRound).
  static bufferevent* on_accept(event_base* base, void* arg) {
    Impl& im = *static_cast<Impl*>(arg);
    bufferevent* bev = bufferevent_socket_new(base, -1, BEV_OPT_CLOSE_ON_FREE);
    if (bev) (void)bufferevent_priority_set(bev, kReadPriority);
    if (++im.accepted_this_round >= kAcceptsPerRound && im.bound_socket) {
      // The listener stops its accept loop when disabled from inside it.
      evconnlistener_disable(evhttp_bound_socket_get_listener(im.bound_socket));
      event_active(im.resume_accept, EV_TIMEOUT, 0);
      timeval tv = kAcceptPause;
      evtimer_add(im.resume_timer, &tv);
    }
    return bev;
  }

  /// accept() failed with an error the listener does not retry (EMFILE, ENFILE, ENOBUFS,
  /// ENOMEM): the listening socket stays readable, so pause accepting for kAcceptBackoff
  /// instead of spinning; the pending connections wait in the backlog meanwhile.
  static void on_accept_error(evconnlistener* listener, void* /*evhttp's*/) {
    evconnlistener_disable(listener);
    timeval tv = kAcceptBackoff;
    event_base_once(
        evconnlistener_get_base(listener), -1, EV_TIMEOUT,
        [](evutil_socket_t, short, void* l) { evconnlistener_enable(static_cast<evconnlistener*>(l)); }, listener,
        &tv);
  }

  static void on_resume_accept(evutil_socket_t, short, void* arg) {
    Impl& im = *static_cast<Impl*>(arg);
    if (im.accepted_this_round == 0) return;  // the other of the two resumers came first
    im.accepted_this_round = 0;
    event_del(im.resume_accept);
    evtimer_del(im.resume_timer);
    if (im.bound_socket) evconnlistener_enable(evhttp_bound_socket_get_listener(im.bound_socket));
  }

  static void on_request(evhttp_request* req, void* arg) {
    Impl& im = *static_cast<Impl*>(arg);
    if (im.in_flight.size() >= kMaxResponsesInFlight) {
      // Bounded memory: each unfinished response holds its whole body.
      evhttp_add_header(evhttp_request_get_output_headers(req), "Connection", "close");
      evhttp_add_header(evhttp_request_get_output_headers(req), "Retry-After", "1");
      im.reply(req, HTTP_SERVUNAVAIL, "Service Unavailable", "text/plain; charset=utf-8", kBusy, std::strlen(kBusy));
      return;
    }
    const evhttp_uri* uri = evhttp_request_get_evhttp_uri(req);
    const char* raw_path = uri ? evhttp_uri_get_path(uri) : nullptr;
    std::string_view path = raw_path ? raw_path : "";
    bool metrics = path == "/metrics";
    if (!metrics && path != "/") {
      im.reply(req, HTTP_NOTFOUND, "Not Found", "text/plain; charset=utf-8", kNotFound, std::strlen(kNotFound));
      return;
    }
    evhttp_cmd_type cmd = evhttp_request_get_command(req);
    if (cmd != EVHTTP_REQ_GET && cmd != EVHTTP_REQ_HEAD) {
      evhttp_add_header(evhttp_request_get_output_headers(req), "Allow", "GET, HEAD");
      static constexpr const char* kNotAllowed = "405 method not allowed\n";
      im.reply(req, 405, "Method Not Allowed", "text/plain; charset=utf-8", kNotAllowed,
            std::strlen(kNotAllowed));
      return;
    }
    if (metrics) {
      std::string body;
      try {
        body = im.exporter.scrape();
      } catch (const std::exception& e) {  // never out through libevent's C frames
        std::string msg = std::string("scrape failed: ") + e.what() + "\n";
        im.reply(req, HTTP_INTERNAL, "Internal Server Error", "text/plain; charset=utf-8", msg.data(), msg.size());
        return;
      }
      im.reply(req, HTTP_OK, "OK", kMetricsType, body.data(), body.size());
    } else {
      im.reply(req, HTTP_OK, "OK", "text/html; charset=utf-8", kIndexPage, std::strlen(kIndexPage));
    }
  }
};

Server::Server(Exporter& exporter, ServerOptions options)
    : m_impl(std::make_unique<Impl>(exporter, std::move(options))) {
  Impl& im = *m_impl;
  event_set_log_callback(discard_libevent_log);
  if (event_config* cfg = event_config_new()) {
    event_config_set_max_dispatch_interval(cfg, nullptr, kReadsPerPass, kWritePriority + 1);
    im.base = event_base_new_with_config(cfg);
    event_config_free(cfg);
  }
  if (im.base && event_base_priority_init(im.base, kPriorities) != 0) {
    event_base_free(im.base);
    im.base = nullptr;
  }
  im.stop_fd = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (im.base && im.stop_fd >= 0) {
    im.stop_event = event_new(im.base, im.stop_fd, EV_READ | EV_PERSIST, &Impl::on_stop, &im);
    if (im.stop_event) {
      event_priority_set(im.stop_event, kWritePriority);
      event_add(im.stop_event, nullptr);
    }
    im.resume_accept = event_new(im.base, -1, 0, &Impl::on_resume_accept, &im);
    if (im.resume_accept) event_priority_set(im.resume_accept, kResumeAcceptPriority);
    im.resume_timer = evtimer_new(im.base, &Impl::on_resume_accept, &im);
    if (im.resume_timer) event_priority_set(im.resume_timer, kWritePriority);
    if (im.stop_event && im.resume_accept && im.resume_timer) im.http = evhttp_new(im.base);
  }
  if (!im.http) return;  // bind() reports it
  evhttp_set_bevcb(im.http, &Impl::on_accept, &im);
  timeval tv{std::max({1, im.opt.read_timeout_s, im.opt.write_timeout_s}), 0};
  evhttp_set_timeout_tv(im.http, &tv);
  evhttp_set_max_headers_size(im.http, kMaxHeadersBytes);
  evhttp_set_max_body_size(im.http, kMaxBodyBytes);
  // Every method reaches on_request, which answers 405 itself (evhttp would answer 501).
  evhttp_set_allowed_methods(im.http, EVHTTP_REQ_GET | EVHTTP_REQ_HEAD | EVHTTP_REQ_POST |
                                          EVHTTP_REQ_PUT | EVHTTP_REQ_DELETE | EVHTTP_REQ_OPTIONS |
                                          EVHTTP_REQ_TRACE | EVHTTP_REQ_CONNECT | EVHTTP_REQ_PATCH);
  evhttp_set_gencb(im.http, &Impl::on_request, &im);
}

Server::~Server() {
  Impl& im = *m_impl;
  if (im.http) evhttp_free(im.http);  // closes the listener and every open connection
  im.in_flight.clear();  // their timers, before the base
  if (im.resume_accept) event_free(im.resume_accept);
  if (im.resume_timer) event_free(im.resume_timer);
  if (im.stop_event) event_free(im.stop_event);
  if (im.base) event_base_free(im.base);
  if (im.stop_fd >= 0) ::close(im.stop_fd);
}

Result<int> Server::bind() {
  Impl& im = *m_impl;
  std::string where = address_text(im.opt.host, im.opt.port);
  if (!im.http) return unexpected(ErrorKind::io, "cannot listen: cannot set up the event loop", where);
  if (im.bound_socket) return unexpected(ErrorKind::io, "cannot listen: already bound", where);

  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  addrinfo* found = nullptr;
  std::string port_text = std::to_string(im.opt.port);
  if (int rc = ::getaddrinfo(im.opt.host.c_str(), port_text.c_str(), &hints, &found); rc != 0)
    return unexpected(ErrorKind::io, std::string("cannot listen: ") + ::gai_strerror(rc), where);

  std::string reason = "no address";
  int fd = -1;
  for (addrinfo* ai = found; ai; ai = ai->ai_next) {
    fd = ::socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, ai->ai_protocol);
    if (fd < 0) {
      reason = std::strerror(errno);
      continue;
    }
    int yes = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    // The kernel completes the handshake but hands the connection to accept() only once data
    // arrives: a half-open or silent client never reaches the event loop.
    int defer_s = std::max(1, im.opt.read_timeout_s);
    ::setsockopt(fd, IPPROTO_TCP, TCP_DEFER_ACCEPT, &defer_s, sizeof defer_s);
    if (::bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 && ::listen(fd, kListenBacklog) == 0) break;
    reason = std::strerror(errno);
    ::close(fd);
    fd = -1;
  }
  ::freeaddrinfo(found);
  if (fd < 0) return unexpected(ErrorKind::io, "cannot listen: " + reason, where);

  sockaddr_storage ss{};
  socklen_t sl = sizeof ss;
  int port = im.opt.port;
  if (::getsockname(fd, reinterpret_cast<sockaddr*>(&ss), &sl) == 0) {
    if (ss.ss_family == AF_INET) port = ntohs(reinterpret_cast<sockaddr_in*>(&ss)->sin_port);
    else if (ss.ss_family == AF_INET6) port = ntohs(reinterpret_cast<sockaddr_in6*>(&ss)->sin6_port);
  }
  // evhttp owns fd from here (closed by evhttp_free).
  im.bound_socket = evhttp_accept_socket_with_handle(im.http, fd);
  if (!im.bound_socket) {
    // Out of memory inside libevent; it may already have closed fd, so it is not closed here.
    return unexpected(ErrorKind::io, "cannot listen: evhttp refused the socket", where);
  }
  evconnlistener_set_error_cb(evhttp_bound_socket_get_listener(im.bound_socket), &Impl::on_accept_error);
  return port;
}

void Server::run() {
  Impl& im = *m_impl;
  if (!im.http || im.stopped.load()) return;
  event_base_dispatch(im.base);
}

void Server::stop() {
  Impl& im = *m_impl;
  im.stopped.store(true);
  if (im.stop_fd >= 0) {
    std::uint64_t one = 1;
    (void)!::write(im.stop_fd, &one, sizeof one);
  }
}

}  // namespace rk::exporter
