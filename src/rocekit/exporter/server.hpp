// HTTP endpoint of rocekit exporter (cpp-httplib): GET /metrics serves Exporter::scrape(), GET /
// a short page, anything else 404. Bounded: a fixed pool of worker threads, per-read and
// per-write timeouts, keep-alive limits, no request bodies, TCP_DEFER_ACCEPT on the listening
// socket (a connection that never sends is not handed to a worker).
#pragma once

#include <memory>
#include <string>

#include "rocekit/core/result.hpp"
#include "rocekit/exporter/exporter.hpp"

namespace rk::exporter {

struct ServerOptions {
  std::string host = "127.0.0.1";
  int port = 9857;                 ///< default port: see README "rocekit exporter"
  std::size_t threads = 4;         ///< worker threads (accepted connections queue behind them)
  int read_timeout_s = 5;          ///< per read of a request; a silent client is dropped after this
  int write_timeout_s = 5;
  int keep_alive_timeout_s = 5;
  std::size_t keep_alive_max_requests = 16;
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

  /// Binds the listening socket. Errors: io with the address and the reason (in use, refused).
  Result<int> bind();
  /// Serves until stop() (blocks). bind() first.
  void run();
  /// Stops run() from any thread (signal watcher); idempotent.
  void stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> m_impl;
};

}  // namespace rk::exporter
