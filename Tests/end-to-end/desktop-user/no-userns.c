/* no-userns PROGRAM [ARG…]: runs PROGRAM where the kernel refuses user namespaces, as on
 * Ubuntu 23.10 and later (kernel.apparmor_restrict_unprivileged_userns=1), linux-hardened and
 * many containers: unshare(2), clone(2) and setns(2) with CLONE_NEWUSER fail with EPERM, and
 * clone3(2) with ENOSYS (its flags are in memory, out of a seccomp filter's reach; glibc then
 * falls back to clone). The filter is inherited by everything PROGRAM starts. */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <seccomp.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: no-userns PROGRAM [ARG...]\n"); return 2; }
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
    if (!ctx) { fprintf(stderr, "no-userns: seccomp_init failed\n"); return 1; }
    int r = 0;
    r |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(unshare), 1,
                          SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_NEWUSER, CLONE_NEWUSER));
    r |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(clone), 1,
                          SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_NEWUSER, CLONE_NEWUSER));
    r |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(setns), 1,
                          SCMP_A1(SCMP_CMP_MASKED_EQ, CLONE_NEWUSER, CLONE_NEWUSER));
    r |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
    if (r != 0) { fprintf(stderr, "no-userns: seccomp_rule_add: %s\n", strerror(-r)); return 1; }
    /* Without privileges a filter needs no_new_privs (libseccomp sets it by default). */
    if ((r = seccomp_load(ctx)) != 0) { fprintf(stderr, "no-userns: seccomp_load: %s\n", strerror(-r)); return 1; }
    seccomp_release(ctx);
    execvp(argv[1], argv + 1);
    fprintf(stderr, "no-userns: %s: %s\n", argv[1], strerror(errno));
    return 127;
}
