#define _GNU_SOURCE
#include <pthread.h>
#include "CSystem.h"
#include <errno.h>
#include <stdio.h>
#include <fcntl.h>
#include <netdb.h>
#include <string.h>
#include <unistd.h>
#include <signal.h>
#include <time.h>
#include <sys/resource.h>

int csys_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

int csys_epoll_ctl(int epfd, int op, int fd, uint32_t events, uint64_t data) {
    struct epoll_event ev;
    memset(&ev, 0, sizeof ev);
    ev.events = events;
    ev.data.u64 = data;
    return epoll_ctl(epfd, op, fd, &ev);
}

int csys_epoll_wait(int epfd, uint64_t *datas, uint32_t *masks, int max, int timeout_ms) {
    struct epoll_event evs[256];
    if (max > 256) max = 256;
    int n;
    do { n = epoll_wait(epfd, evs, max, timeout_ms); } while (n < 0 && errno == EINTR);
    for (int i = 0; i < n; i++) { datas[i] = evs[i].data.u64; masks[i] = evs[i].events; }
    return n;
}

int csys_eventfd(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }

int csys_eventfd_signal(int fd) {
    uint64_t one = 1;
    ssize_t r = write(fd, &one, sizeof one);
    return r == (ssize_t)sizeof one || errno == EAGAIN ? 0 : -1;
}

int csys_eventfd_drain(int fd) {
    uint64_t v;
    return read(fd, &v, sizeof v) == (ssize_t)sizeof v ? 0 : -1;
}

int csys_accept4(int fd, struct sockaddr_storage *addr, socklen_t *len) {
    *len = sizeof *addr;
    return accept4(fd, (struct sockaddr *)addr, len, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

int csys_socket_tcp(int family) { return socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0); }

int csys_set_nodelay(int fd) { int one = 1; return setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one); }

int csys_set_reuseaddr(int fd) { int one = 1; return setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one); }

int csys_set_nonblocking(int fd) {
    int flags = fcntl(fd, F_GETFL, 0);
    return flags < 0 ? -1 : fcntl(fd, F_SETFL, flags | O_NONBLOCK);
}

int csys_listen(const char *host, int port, int backlog) {
    struct addrinfo hints, *res = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    char portstr[16];
    snprintf(portstr, sizeof portstr, "%d", port);
    int rc = getaddrinfo(host, portstr, &hints, &res);
    if (rc != 0 || res == NULL) return -EADDRNOTAVAIL;
    int fd = socket(res->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) { int e = errno; freeaddrinfo(res); return -e; }
    csys_set_reuseaddr(fd);
    if (bind(fd, res->ai_addr, res->ai_addrlen) < 0 || listen(fd, backlog) < 0) {
        int e = errno; close(fd); freeaddrinfo(res); return -e;
    }
    freeaddrinfo(res);
    return fd;
}

int csys_local_port(int fd) {
    struct sockaddr_storage addr;
    socklen_t len = sizeof addr;
    if (getsockname(fd, (struct sockaddr *)&addr, &len) < 0) return -1;
    if (addr.ss_family == AF_INET) return ntohs(((struct sockaddr_in *)&addr)->sin_port);
    if (addr.ss_family == AF_INET6) return ntohs(((struct sockaddr_in6 *)&addr)->sin6_port);
    return -1;
}

void csys_format_address(const struct sockaddr_storage *addr, char *buf, int buflen) {
    buf[0] = 0;
    if (addr->ss_family == AF_INET)
        inet_ntop(AF_INET, &((const struct sockaddr_in *)addr)->sin_addr, buf, buflen);
    else if (addr->ss_family == AF_INET6)
        inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)addr)->sin6_addr, buf, buflen);
}

ssize_t csys_send(int fd, const void *buf, size_t len) {
    ssize_t n;
    do { n = send(fd, buf, len, MSG_NOSIGNAL); } while (n < 0 && errno == EINTR);
    return n;
}

ssize_t csys_send2(int fd, const void *a, size_t alen, const void *b, size_t blen) {
    struct iovec pieces[2] = {{(void *)a, alen}, {(void *)b, blen}};
    struct msghdr message = {0};
    message.msg_iov = pieces;
    message.msg_iovlen = 2;
    ssize_t n;
    do { n = sendmsg(fd, &message, MSG_NOSIGNAL); } while (n < 0 && errno == EINTR);
    return n;
}

ssize_t csys_recv(int fd, void *buf, size_t len) {
    ssize_t n;
    do { n = recv(fd, buf, len, 0); } while (n < 0 && errno == EINTR);
    return n;
}

uint64_t csys_monotonic_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int64_t csys_wall_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void csys_http_date(int64_t seconds, char *buf) {
    time_t t = (time_t)seconds;
    struct tm tm;
    gmtime_r(&t, &tm);
    static const char *days[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
    static const char *months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    snprintf(buf, 30, "%s, %02d %s %04d %02d:%02d:%02d GMT", days[tm.tm_wday], tm.tm_mday, months[tm.tm_mon],
             tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

int csys_block_signals(void) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGPIPE);
    return pthread_sigmask(SIG_BLOCK, &set, NULL);
}

int csys_wait_termination_signal(void) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    int sig = 0;
    while (sigwait(&set, &sig) != 0) {}
    return sig;
}

long csys_raise_nofile_limit(void) {
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0) return -1;
    if (rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
        getrlimit(RLIMIT_NOFILE, &rl);
    }
    return (long)rl.rlim_cur;
}
