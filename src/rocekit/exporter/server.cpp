#include "rocekit/exporter/server.hpp"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include <httplib.h>

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

struct Server::Impl {
  Exporter& exporter;
  ServerOptions opt;
  httplib::Server http;
  Impl(Exporter& e, ServerOptions o) : exporter(e), opt(std::move(o)) {}
};

Server::Server(Exporter& exporter, ServerOptions options)
    : m_impl(std::make_unique<Impl>(exporter, std::move(options))) {
  Impl& im = *m_impl;
  std::size_t threads = std::max<std::size_t>(1, im.opt.threads);
  im.http.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  im.http.set_read_timeout(im.opt.read_timeout_s, 0);
  im.http.set_write_timeout(im.opt.write_timeout_s, 0);
  im.http.set_keep_alive_timeout(im.opt.keep_alive_timeout_s);
  im.http.set_keep_alive_max_count(im.opt.keep_alive_max_requests);
  im.http.set_payload_max_length(4096);  // scrapes have no body
  int defer_s = im.opt.read_timeout_s;
  im.http.set_socket_options([defer_s](int sock) {
    int yes = 1;
    ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    // The kernel completes the handshake but hands the connection to accept() only once data
    // arrives: a half-open or silent client never occupies a worker thread.
    int secs = defer_s;
    ::setsockopt(sock, IPPROTO_TCP, TCP_DEFER_ACCEPT, &secs, sizeof secs);
  });
  Exporter& ex = im.exporter;
  im.http.Get("/metrics", [&ex](const httplib::Request&, httplib::Response& res) {
    res.set_content(ex.scrape(), "text/plain; version=0.0.4; charset=utf-8");
  });
  im.http.Get("/", [](const httplib::Request&, httplib::Response& res) {
    res.set_content(
        "<html><head><title>rocekit exporter</title></head><body><h1>rocekit exporter</h1>"
        "<p><a href=\"/metrics\">Metrics</a></p></body></html>\n",
        "text/html; charset=utf-8");
  });
  im.http.set_error_handler([](const httplib::Request&, httplib::Response& res) {
    if (res.status == 404) res.set_content("404 page not found\n", "text/plain; charset=utf-8");
  });
}

Server::~Server() = default;

namespace {

/// cpp-httplib 0.11 listens with a backlog of 5 and keeps the socket private: find our listening
/// socket (SO_ACCEPTCONN, bound to `port`) and raise the backlog, so a burst of scrapes is queued
/// by the kernel instead of dropped SYNs and client retries. Linux applies a repeated listen().
void raise_backlog(int port, int backlog) {
  for (int fd = 0; fd < 4096; ++fd) {
    int accepting = 0;
    socklen_t len = sizeof accepting;
    if (::getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &accepting, &len) != 0 || !accepting) continue;
    sockaddr_storage ss{};
    socklen_t sl = sizeof ss;
    if (::getsockname(fd, reinterpret_cast<sockaddr*>(&ss), &sl) != 0) continue;
    int p = ss.ss_family == AF_INET ? ntohs(reinterpret_cast<sockaddr_in*>(&ss)->sin_port)
            : ss.ss_family == AF_INET6 ? ntohs(reinterpret_cast<sockaddr_in6*>(&ss)->sin6_port)
                                       : -1;
    if (p == port) ::listen(fd, backlog);
  }
}

}  // namespace

Result<int> Server::bind() {
  Impl& im = *m_impl;
  if (!im.http.bind_to_port(im.opt.host.c_str(), im.opt.port))
    return unexpected(ErrorKind::io, "cannot listen (address in use, not local, or not permitted)",
                      im.opt.host + ":" + std::to_string(im.opt.port));
  raise_backlog(im.opt.port, 1024);
  return im.opt.port;
}

void Server::run() { m_impl->http.listen_after_bind(); }

void Server::stop() { m_impl->http.stop(); }

}  // namespace rk::exporter
