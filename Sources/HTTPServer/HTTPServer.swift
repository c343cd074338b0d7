// HTTP server.
