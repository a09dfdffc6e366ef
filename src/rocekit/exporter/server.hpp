// HTTP endpoint of rocekit exporter, on libevent 2.1's evhttp: one event-loop thread serves every
// connection. GET or HEAD /metrics (a query string is ignored) -> 200 with Exporter::scrape() as
// `text/plain; version=0.0.4; charset=utf-8`; GET or HEAD / -> a short HTML page; any other
// method on those two paths -> 405 with `Allow: GET, HEAD`; any other path -> 404 "404 page not
// found". Responses are never compressed (no zlib, Accept-Encoding is ignored).
// Bounds: request headers at most 8 KiB and bodies at most 4 KiB (evhttp answers 400/413); one
// connection timeout (the larger of read_timeout_s and write_timeout_s: evhttp 2.1 has a single
// timeout for both directions) after which an idle or stalled connection is closed; a listen
// backlog of 1024; TCP_DEFER_ACCEPT on the listening socket, so a client that connects and sends
// nothing is never accepted. A scrape runs in the loop thread: concurrent scrapes are served one
// after another. libevent's own log messages (per-connection errors) are discarded.
#pragma once

#include <memory>
#include <string>

#include "rocekit/core/result.hpp"
#include "rocekit/exporter/exporter.hpp"

namespace rk::exporter {

struct ServerOptions {
  std::string host = "127.0.0.1";  ///< numeric IPv4/IPv6 address or a name getaddrinfo resolves
  int port = 9857;                 ///< default port: see README "rocekit exporter"; 0 = any free port
  int read_timeout_s = 5;          ///< a connection silent this long (seconds) is closed
  int write_timeout_s = 5;         ///< a client not reading its response this long is dropped
};

/// Splits "ADDR:PORT" ("127.0.0.1:9857", "[::1]:9857", ":9857" = all IPv4 addresses).
/// Errors: malformed_input naming the text.
Result<std::pair<std::string, int>> parse_listen_address(std::string_view text);

class Server {
 public:
  Server(Exporter& exporter, ServerOptions options);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  /// Creates, binds and listens on the socket (the CLI raises RLIMIT_NOFILE beforehand, since
  /// each connection holds a descriptor) (SO_REUSEADDR, TCP_DEFER_ACCEPT, backlog 1024). Returns the
  /// bound port (the chosen one when options.port is 0). Errors: io naming "host:port" with the
  /// reason (address in use, not local, not permitted, unresolvable host); io when already bound.
  Result<int> bind();
  /// Serves until stop() (blocks in the event loop). bind() first; returns at once when stop()
  /// was already called.
  void run();
  /// Makes run() return, from any thread (e.g. a signal watcher); idempotent, and also effective
  /// when called before run(). Connections still open are closed by the destructor.
  void stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> m_impl;
};

}  // namespace rk::exporter
