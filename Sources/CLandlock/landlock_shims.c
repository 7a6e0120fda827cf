#define _GNU_SOURCE
#include "landlock_shims.h"
#include <errno.h>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The same numbers on every architecture (the generic syscall table). */
#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#define SYS_landlock_add_rule 445
#define SYS_landlock_restrict_self 446
#endif

#define LL_CREATE_RULESET_VERSION (1U << 0)
#define LL_RULE_PATH_BENEATH 1
#define LL_RULE_NET_PORT 2

struct ll_ruleset_attr { uint64_t handled_access_fs, handled_access_net, scoped; };
struct ll_path_beneath_attr { uint64_t allowed_access; int32_t parent_fd; } __attribute__((packed));
struct ll_net_port_attr { uint64_t allowed_access; uint64_t port; };

/* Rights that apply to a file (not only to a directory's entries). */
#define LL_FILE_RIGHTS (PDX_LL_FS_EXECUTE | PDX_LL_FS_WRITE_FILE | PDX_LL_FS_READ_FILE | PDX_LL_FS_TRUNCATE | PDX_LL_FS_IOCTL_DEV)

static int result(long r) { return r < 0 ? -errno : (int)r; }

int pdx_landlock_abi(void) {
    return result(syscall(SYS_landlock_create_ruleset, NULL, 0, LL_CREATE_RULESET_VERSION));
}

int pdx_landlock_create(uint64_t fs, uint64_t net, uint64_t scoped) {
    struct ll_ruleset_attr attr = { fs, net, scoped };
    /* An older kernel reads only the fields it knows; a field it does not know must be zero,
     * so the size is cut to the last field in use. */
    size_t size = scoped ? sizeof attr : net ? 2 * sizeof(uint64_t) : sizeof(uint64_t);
    return result(syscall(SYS_landlock_create_ruleset, &attr, size, 0));
}

int pdx_landlock_allow_path(int ruleset, const char *path, uint64_t access) {
    int fd = open(path, O_PATH | O_CLOEXEC);
    if (fd < 0) return -errno;
    struct stat st;
    if (fstat(fd, &st) < 0) { int e = -errno; close(fd); return e; }
    if (!S_ISDIR(st.st_mode)) access &= LL_FILE_RIGHTS;
    struct ll_path_beneath_attr attr = { access, fd };
    int r = access ? result(syscall(SYS_landlock_add_rule, ruleset, LL_RULE_PATH_BENEATH, &attr, 0)) : 0;
    close(fd);
    return r;
}

int pdx_landlock_allow_port(int ruleset, uint64_t port, uint64_t access) {
    struct ll_net_port_attr attr = { access, port };
    return result(syscall(SYS_landlock_add_rule, ruleset, LL_RULE_NET_PORT, &attr, 0));
}

int pdx_landlock_restrict(int ruleset) {
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) return -errno;
    return result(syscall(SYS_landlock_restrict_self, ruleset, 0));
}
