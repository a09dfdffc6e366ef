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
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstring>

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

/// libevent logs per-connection trouble (resets, accept errors) to stderr by default: a slow or
/// broken client must not fill the exporter's log.
void discard_libevent_log(int /*severity*/, const char* /*msg*/) {}

/// "host:port", bracketing an IPv6 address.
std::string address_text(const std::string& host, int port) {
  bool v6 = host.find(':') != std::string::npos;
  return (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

/// Best effort: many concurrent scrapes each hold a descriptor; the soft limit (often 1024) is
/// the one that runs out first.
void raise_nofile_limit() {
  rlimit lim{};
  if (::getrlimit(RLIMIT_NOFILE, &lim) != 0 || lim.rlim_cur >= lim.rlim_max) return;
  lim.rlim_cur = lim.rlim_max;
  (void)::setrlimit(RLIMIT_NOFILE, &lim);
}

}  // namespace

struct Server::Impl {
  Exporter& exporter;
  ServerOptions opt;
  event_base* base = nullptr;
  evhttp* http = nullptr;
  event* stop_event = nullptr;
  event* resume_accept = nullptr;  ///< priority kResumeAcceptPriority, activated by hand
  evhttp_bound_socket* bound_socket = nullptr;
  int accepted_this_round = 0;
  int stop_fd = -1;  ///< eventfd: stop() writes, the loop's callback breaks the loop
  std::atomic<bool> stopped{false};

  Impl(Exporter& e, ServerOptions o) : exporter(e), opt(std::move(o)) {}

  static void on_stop(evutil_socket_t fd, short /*what*/, void* arg) {
    std::uint64_t n = 0;
    (void)!::read(fd, &n, sizeof n);
    event_base_loopbreak(static_cast<Impl*>(arg)->base);
  }

  static void reply(evhttp_request* req, int code, const char* reason, const char* type,
                    const char* body, std::size_t size) {
    evkeyvalq* headers = evhttp_request_get_output_headers(req);
    evhttp_add_header(headers, "Content-Type", type);
    if (evhttp_request_get_command(req) == EVHTTP_REQ_HEAD) {
      // evhttp sends no body for HEAD and adds no Content-Length: give the GET one.
      evhttp_add_header(headers, "Content-Length", std::to_string(size).c_str());
    } else {
      evbuffer_add(evhttp_request_get_output_buffer(req), body, size);
    }
    // Send this response before reading more requests (see kReadsPerPass); back to the read
    // priority once it is written (a keep-alive connection's next request queues like others).
    set_priority(req, kWritePriority);
    evhttp_request_set_on_complete_cb(
        req, [](evhttp_request* r, void*) { set_priority(r, kReadPriority); }, nullptr);
    evhttp_send_reply(req, code, reason, nullptr);
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
    }
    return bev;
  }

  static void on_resume_accept(evutil_socket_t, short, void* arg) {
    Impl& im = *static_cast<Impl*>(arg);
    im.accepted_this_round = 0;
    if (im.bound_socket) evconnlistener_enable(evhttp_bound_socket_get_listener(im.bound_socket));
  }

  static void on_request(evhttp_request* req, void* arg) {
    Impl& im = *static_cast<Impl*>(arg);
    const evhttp_uri* uri = evhttp_request_get_evhttp_uri(req);
    const char* raw_path = uri ? evhttp_uri_get_path(uri) : nullptr;
    std::string_view path = raw_path ? raw_path : "";
    bool metrics = path == "/metrics";
    if (!metrics && path != "/") {
      reply(req, HTTP_NOTFOUND, "Not Found", "text/plain; charset=utf-8", kNotFound, std::strlen(kNotFound));
      return;
    }
    evhttp_cmd_type cmd = evhttp_request_get_command(req);
    if (cmd != EVHTTP_REQ_GET && cmd != EVHTTP_REQ_HEAD) {
      evhttp_add_header(evhttp_request_get_output_headers(req), "Allow", "GET, HEAD");
      static constexpr const char* kNotAllowed = "405 method not allowed\n";
      reply(req, 405, "Method Not Allowed", "text/plain; charset=utf-8", kNotAllowed,
            std::strlen(kNotAllowed));
      return;
    }
    if (metrics) {
      std::string body = im.exporter.scrape();
      reply(req, HTTP_OK, "OK", kMetricsType, body.data(), body.size());
    } else {
      reply(req, HTTP_OK, "OK", "text/html; charset=utf-8", kIndexPage, std::strlen(kIndexPage));
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
    if (im.stop_event && im.resume_accept) im.http = evhttp_new(im.base);
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
  if (im.resume_accept) event_free(im.resume_accept);
  if (im.stop_event) event_free(im.stop_event);
  if (im.base) event_base_free(im.base);
  if (im.stop_fd >= 0) ::close(im.stop_fd);
}

Result<int> Server::bind() {
  Impl& im = *m_impl;
  raise_nofile_limit();
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
