#ifndef CSYSTEM_H
#define CSYSTEM_H
// Thin wrappers for Linux syscalls and constants that Glibc's Swift overlay
// does not import cleanly (epoll, accept4, eventfd, TCP_NODELAY, SO_REUSEPORT).
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>

int csys_epoll_create(void);
int csys_epoll_ctl(int epfd, int op, int fd, uint32_t events, uint64_t data);
/// Waits for events; fills parallel arrays of user data and event masks.
int csys_epoll_wait(int epfd, uint64_t *datas, uint32_t *masks, int max, int timeout_ms);
int csys_eventfd(void);
int csys_eventfd_signal(int fd);
int csys_eventfd_drain(int fd);
int csys_accept4(int fd, struct sockaddr_storage *addr, socklen_t *len);
int csys_socket_tcp(int family);
int csys_set_nodelay(int fd);
int csys_set_reuseaddr(int fd);
int csys_set_nonblocking(int fd);
/// Binds and listens on host:port (IPv4 or IPv6 literal or "localhost"); returns fd or -errno.
int csys_listen(const char *host, int port, int backlog);
/// The local port a bound socket listens on, or -1.
int csys_local_port(int fd);
/// Formats the peer address of a storage into buf ("ip").
void csys_format_address(const struct sockaddr_storage *addr, char *buf, int buflen);
ssize_t csys_send(int fd, const void *buf, size_t len);
/// Sends `a` then `b` in one call (sendmsg with two pieces, no SIGPIPE); -1 with errno on failure.
ssize_t csys_send2(int fd, const void *a, size_t alen, const void *b, size_t blen);
ssize_t csys_recv(int fd, void *buf, size_t len);
/// Monotonic clock in nanoseconds.
uint64_t csys_monotonic_ns(void);
/// Wall clock in milliseconds since the Unix epoch.
int64_t csys_wall_ms(void);
/// Formats an IMF-fixdate (RFC 9110 §5.6.7) for the given Unix seconds into buf (at least 30 bytes).
void csys_http_date(int64_t seconds, char *buf);
/// Blocks SIGINT, SIGTERM and SIGPIPE in the calling thread (inherited by threads created after).
int csys_block_signals(void);
/// Waits for SIGINT or SIGTERM (which must be blocked); returns the signal number.
int csys_wait_termination_signal(void);
/// Raises the open-files soft limit to the hard limit; returns the new soft limit.
long csys_raise_nofile_limit(void);

enum {
    CSYS_EPOLLIN = EPOLLIN,
    CSYS_EPOLLOUT = EPOLLOUT,
    CSYS_EPOLLERR = EPOLLERR,
    CSYS_EPOLLHUP = EPOLLHUP,
    CSYS_EPOLLRDHUP = EPOLLRDHUP,
    CSYS_EPOLLET = (int)EPOLLET,
    CSYS_EPOLLEXCLUSIVE = (int)EPOLLEXCLUSIVE,
    CSYS_EPOLL_CTL_ADD = EPOLL_CTL_ADD,
    CSYS_EPOLL_CTL_MOD = EPOLL_CTL_MOD,
    CSYS_EPOLL_CTL_DEL = EPOLL_CTL_DEL,
};
#endif
