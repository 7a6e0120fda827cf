#include "seccomp_shims.h"

#include <errno.h>
#include <seccomp.h>
#include <sys/socket.h>

int pdx_refuse_new_unix_sockets(void) {
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
    if (!ctx) return -ENOMEM;
    struct scmp_arg_cmp unix_family = SCMP_A0(SCMP_CMP_EQ, AF_UNIX);
    int r = seccomp_rule_add_exact_array(ctx, SCMP_ACT_ERRNO(EAFNOSUPPORT), SCMP_SYS(socket), 1, &unix_family);
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
