#define _GNU_SOURCE
#include "sandbox_probes.h"

#include <errno.h>
#include <linux/io_uring.h>
#include <linux/netlink.h>
#include <netinet/in.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

#ifndef AF_VSOCK
#define AF_VSOCK 40
#endif

#define HIGH (1L << 32)

static socklen_t unix_address(const char *path, struct sockaddr_un *sa) {
    memset(sa, 0, sizeof *sa);
    sa->sun_family = AF_UNIX;
    size_t n = strlen(path);
    if (n >= sizeof sa->sun_path) n = sizeof sa->sun_path - 1;
    memcpy(sa->sun_path, path, n);
    return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n + 1);
}

/* 0 when fd (made by the probe, closed here) reached path, else the errno. */
static int result(long fd, int (*use)(int, const char *), const char *path) {
    if (fd < 0) return errno;
    int r = use ? use((int)fd, path) : 0;
    close((int)fd);
    return r;
}

static int connect_to(int fd, const char *path) {
    struct sockaddr_un sa;
    socklen_t len = unix_address(path, &sa);
    return connect(fd, (struct sockaddr *)&sa, len) == 0 ? 0 : errno;
}

static int sendto_path(int fd, const char *path) {
    struct sockaddr_un sa;
    socklen_t len = unix_address(path, &sa);
    return sendto(fd, "probe", 5, MSG_NOSIGNAL | MSG_DONTWAIT, (struct sockaddr *)&sa, len) == 5 ? 0 : errno;
}

static int sendmsg_path(int fd, const char *path) {
    struct sockaddr_un sa;
    socklen_t len = unix_address(path, &sa);
    struct iovec io = { .iov_base = "probe", .iov_len = 5 };
    struct msghdr m = { .msg_name = &sa, .msg_namelen = len, .msg_iov = &io, .msg_iovlen = 1 };
    return sendmsg(fd, &m, MSG_NOSIGNAL | MSG_DONTWAIT) == 5 ? 0 : errno;
}

/* A pair made by the probe: tries `use` on one end; 0 when it reached path. */
static int pair(long family, long type, int (*use)(int, const char *), const char *path) {
    int sv[2];
    if (syscall(SYS_socketpair, family, type, 0L, sv) != 0) return errno;
    int r = use ? use(sv[0], path) : 0;
    close(sv[0]);
    close(sv[1]);
    return r;
}

/* Every Unix datagram socket already open: the only kind that sends where an address says. */
static int held_datagram_sockets(const char *path) {
    int found = 0, r = ENOENT;
    for (int fd = 0; fd < 4096; fd++) {
        struct stat st;
        if (fstat(fd, &st) != 0 || !S_ISSOCK(st.st_mode)) continue;
        int domain = 0, type = 0;
        socklen_t n = sizeof domain;
        if (getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &n) != 0 || domain != AF_UNIX) continue;
        n = sizeof type;
        if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &n) != 0 || type != SOCK_DGRAM) continue;
        found = 1;
        if (sendto_path(fd, path) == 0 || sendmsg_path(fd, path) == 0) return 0;
        r = errno;
    }
    return found ? r : ENOENT;
}

int pdx_sandbox_probe(const char *kind, const char *path) {
    if (!strcmp(kind, "unix-high"))
        return result(syscall(SYS_socket, AF_UNIX | HIGH, (long)(SOCK_STREAM | SOCK_CLOEXEC), 0L), connect_to, path);
    if (!strcmp(kind, "unix-type-high"))
        return result(syscall(SYS_socket, (long)AF_UNIX, (long)(SOCK_STREAM | SOCK_CLOEXEC) | HIGH, 0L), connect_to, path);
    if (!strcmp(kind, "dgram-high"))
        return result(syscall(SYS_socket, AF_UNIX | HIGH, (long)(SOCK_DGRAM | SOCK_CLOEXEC), 0L), sendto_path, path);
    if (!strcmp(kind, "pair-dgram")) return pair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, sendto_path, path);
    if (!strcmp(kind, "pair-high")) return pair(AF_UNIX | HIGH, (SOCK_DGRAM | SOCK_CLOEXEC) | HIGH, sendto_path, path);
    if (!strcmp(kind, "pair-seqpacket")) return pair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, NULL, path);
    if (!strcmp(kind, "pair-sendmsg")) return pair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, sendmsg_path, path);
    if (!strcmp(kind, "pair-sendto")) return pair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, sendto_path, path);
    if (!strcmp(kind, "held-dgram")) return held_datagram_sockets(path);
    if (!strcmp(kind, "io-uring")) {
        struct io_uring_params p;
        memset(&p, 0, sizeof p);
        return result(syscall(SYS_io_uring_setup, 1L, &p), NULL, path);
    }
    if (!strcmp(kind, "raw")) return result(socket(AF_INET, SOCK_RAW | SOCK_CLOEXEC, IPPROTO_ICMP), NULL, path);
    if (!strcmp(kind, "packet")) return result(socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0), NULL, path);
    if (!strcmp(kind, "netlink")) return result(socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_AUDIT), NULL, path);
    if (!strcmp(kind, "vsock")) return result(socket(AF_VSOCK, SOCK_STREAM | SOCK_CLOEXEC, 0), NULL, path);
    return EINVAL;
}
