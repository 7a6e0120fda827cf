#include "seccomp_shims.h"

#include <errno.h>
#include <seccomp.h>
#include <stdint.h>
#include <sys/socket.h>

/* What every rule below compares: the low 32 bits of an argument, as the kernel reads an int. */
#define LOW32(arg, value) SCMP_CMP((arg), SCMP_CMP_MASKED_EQ, 0xffffffffULL, (uint64_t)(value))
/* The type without SOCK_NONBLOCK and SOCK_CLOEXEC (the kernel's SOCK_TYPE_MASK). */
#define SOCKET_TYPE(arg, value) SCMP_CMP((arg), SCMP_CMP_MASKED_EQ, 0xfULL, (uint64_t)(value))

static int refuse(scmp_filter_ctx ctx, int error, int syscall, unsigned count, const struct scmp_arg_cmp *args) {
    return seccomp_rule_add_exact_array(ctx, SCMP_ACT_ERRNO(error), syscall, count, args);
}

int pdx_refuse_new_unix_sockets(void) {
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
    if (!ctx) return -ENOMEM;
    int r = 0;
    /* Every family a socket can have (the kernel refuses 64 and over), but the two. */
    for (int family = 0; family < 64 && r >= 0; family++) {
        if (family == AF_INET || family == AF_INET6) continue;
        struct scmp_arg_cmp is = LOW32(0, family);
        r = refuse(ctx, EAFNOSUPPORT, SCMP_SYS(socket), 1, &is);
        /* socketpair: AF_UNIX only (the kernel's only family with pairs), and streams (below). */
        if (r >= 0 && family != AF_UNIX) r = refuse(ctx, EAFNOSUPPORT, SCMP_SYS(socketpair), 1, &is);
    }
    /* Raw and packet sockets of any family; socketpair: streams only. */
    for (int type = 0; type < 16 && r >= 0; type++) {
        struct scmp_arg_cmp is = SOCKET_TYPE(1, type);
        if (type == SOCK_RAW || type == SOCK_PACKET) r = refuse(ctx, EPERM, SCMP_SYS(socket), 1, &is);
        if (r >= 0 && type != SOCK_STREAM) r = refuse(ctx, ESOCKTNOSUPPORT, SCMP_SYS(socketpair), 1, &is);
    }
    if (r >= 0) {
        int io_uring = seccomp_syscall_resolve_name("io_uring_setup");
        if (io_uring != __NR_SCMP_ERROR) r = seccomp_rule_add_exact(ctx, SCMP_ACT_ERRNO(ENOSYS), io_uring, 0);
    }
    /* Every thread of the process, not only the calling one (libdispatch's may exist already).
     * no_new_privs is already set (Landlock); libseccomp sets it again, which is harmless. */
    if (r >= 0) r = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_TSYNC, 1);
    if (r >= 0) r = seccomp_load(ctx);
    seccomp_release(ctx);
    return r < 0 ? r : 0;
}
