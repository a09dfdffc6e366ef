"""Helpers shared by the exporter's Python tests (abuse_test.py, dashboards_test.py)."""
import socket


def free_port():
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port
