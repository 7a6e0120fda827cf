#define _GNU_SOURCE
#include "seccomp_shims.h"

#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#if defined(__x86_64__)
#define PDX_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define PDX_AUDIT_ARCH AUDIT_ARCH_AARCH64
#else
#error "pdx_notify_relay: no seccomp architecture for this target"
#endif

/* The child runs this file's code alone, after a fork of a threaded process: no
 * sanitizer's runtime may run there (its filter would kill it for a system call of theirs). */
#define CHILD_CODE __attribute__((no_sanitize("address", "thread", "undefined")))

#define ALLOW(nr) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 1), BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)

/* The child's whole world: read a message, send it, exit. Anything else kills it. */
CHILD_CODE static void confine_child(void) {
    struct sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, PDX_AUDIT_ARCH, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        ALLOW(__NR_read),
        ALLOW(__NR_sendto),
        ALLOW(__NR_exit),
        ALLOW(__NR_exit_group),
        ALLOW(__NR_rt_sigreturn),
        ALLOW(__NR_restart_syscall),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
    };
    struct sock_fprog program = { .len = sizeof filter / sizeof filter[0], .filter = filter };
    if (syscall(SYS_prctl, PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
        || syscall(SYS_prctl, PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program, 0, 0) != 0)
        syscall(SYS_exit_group, 1);
}

/* Closes the descriptors first…last (none when last < first); false when the kernel has no
 * close_range (before Linux 5.9). */
CHILD_CODE static int close_span(unsigned first, unsigned last) {
    return last < first || syscall(SYS_close_range, first, last, 0) == 0;
}

/* Closes every descriptor from `first` up but `keep_a` and `keep_b`. */
CHILD_CODE static void close_all_but(int first, int keep_a, int keep_b) {
    unsigned low = (unsigned)(keep_a < keep_b ? keep_a : keep_b), high = (unsigned)(keep_a < keep_b ? keep_b : keep_a);
    if (close_span((unsigned)first, low - 1) && close_span(low + 1, high - 1) && close_span(high + 1, ~0U)) return;
    for (int fd = first; fd < 65536; fd++)
        if (fd != keep_a && fd != keep_b) syscall(SYS_close, fd);
}

/* The child: reads each message from `in` and sends it to `to`, until `in` ends. */
CHILD_CODE __attribute__((noreturn)) static void relay(int in, int notify_fd, const struct sockaddr_un *to, socklen_t length) {
    close_all_but(3, in, notify_fd);
    syscall(SYS_prctl, PR_SET_NAME, "pokedexd-notify", 0, 0, 0);
    confine_child();
    char message[4096];
    for (;;) {
        long n = syscall(SYS_read, in, message, sizeof message);
        if (n == 0 || (n < 0 && errno != EINTR)) syscall(SYS_exit_group, 0);
        if (n > 0) syscall(SYS_sendto, notify_fd, message, (size_t)n, MSG_NOSIGNAL, to, length);
    }
}

int pdx_notify_relay(int notify_fd, const struct sockaddr *address, socklen_t length) {
    struct sockaddr_un to;
    if (notify_fd < 3 || length > sizeof to || length <= offsetof(struct sockaddr_un, sun_path)) return -EINVAL;
    memcpy(&to, address, length);
    int pair[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair) != 0) return -errno;
    /* fork(), not a raw clone, so that what intercepts it (ThreadSanitizer, AddressSanitizer)
     * knows; the child then runs only system calls (async-signal-safe: the service's other
     * threads may have held locks at the fork). */
    pid_t pid = fork();
    if (pid < 0) {
        int error = errno;
        close(pair[0]);
        close(pair[1]);
        return -error;
    }
    if (pid == 0) relay(pair[1], notify_fd, &to, length);
    close(pair[1]);
    return pair[0];
}
