#pragma once
#include <stdint.h>

/* ---- Landlock: the three system calls, without <linux/landlock.h> -------------
 * Debian 12's headers stop at ABI 2; the constants below are the kernel's UAPI
 * (Documentation/userspace-api/landlock.rst), so a newer kernel's rights are used
 * when the running kernel has them. Each function returns a value >= 0 or -errno. */

enum {
    PDX_LL_FS_EXECUTE = 1 << 0, PDX_LL_FS_WRITE_FILE = 1 << 1, PDX_LL_FS_READ_FILE = 1 << 2,
    PDX_LL_FS_READ_DIR = 1 << 3, PDX_LL_FS_REMOVE_DIR = 1 << 4, PDX_LL_FS_REMOVE_FILE = 1 << 5,
    PDX_LL_FS_MAKE_CHAR = 1 << 6, PDX_LL_FS_MAKE_DIR = 1 << 7, PDX_LL_FS_MAKE_REG = 1 << 8,
    PDX_LL_FS_MAKE_SOCK = 1 << 9, PDX_LL_FS_MAKE_FIFO = 1 << 10, PDX_LL_FS_MAKE_BLOCK = 1 << 11,
    PDX_LL_FS_MAKE_SYM = 1 << 12,
    PDX_LL_FS_REFER = 1 << 13,     /* ABI 2 */
    PDX_LL_FS_TRUNCATE = 1 << 14,  /* ABI 3 */
    PDX_LL_FS_IOCTL_DEV = 1 << 15, /* ABI 5 */
    PDX_LL_NET_BIND_TCP = 1 << 0,  /* ABI 4 */
    PDX_LL_NET_CONNECT_TCP = 1 << 1,
    PDX_LL_SCOPE_ABSTRACT_UNIX_SOCKET = 1 << 0, /* ABI 6 */
    PDX_LL_SCOPE_SIGNAL = 1 << 1,
};

/* The running kernel's Landlock ABI version (1, 2, …), or -errno (EOPNOTSUPP: built in but
 * disabled at boot; ENOSYS: not built in). */
int pdx_landlock_abi(void);
/* A new ruleset handling these rights; a file descriptor. */
int pdx_landlock_create(uint64_t fs, uint64_t net, uint64_t scoped);
/* Allows `access` beneath `path` (a directory) or on it (a file: directory rights dropped). */
int pdx_landlock_allow_path(int ruleset, const char *path, uint64_t access);
/* Allows `access` (bind, connect) on a TCP port. */
int pdx_landlock_allow_port(int ruleset, uint64_t port, uint64_t access);
/* no_new_privs, then restricts the calling thread and the threads and programs it starts. */
int pdx_landlock_restrict(int ruleset);

/* ---- Capabilities ----------------------------------------------------------------
 * Drops every capability of the calling thread (effective, permitted, inheritable,
 * ambient) and, where it may, the bounding set: what threads started later inherit. As
 * root, CAP_SYS_ADMIN or CAP_PERFMON would let it read other processes' environ and maps
 * through Landlock's ptrace scope. 0 or -errno. */
int pdx_drop_capabilities(void);
