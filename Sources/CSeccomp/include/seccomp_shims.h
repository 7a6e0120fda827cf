#pragma once

/* ---- The last doors: no new Unix sockets once the service runs ------------------------
 * A seccomp filter (libseccomp) on the calling process and what it starts:
 *   - socket(AF_UNIX, …) fails with EAFNOSUPPORT, as systemd's RestrictAddressFamilies= does:
 *     the bus, the notify socket and the journal's stream are open before it is applied;
 *   - io_uring_setup fails with ENOSYS (an io_uring could open a socket past the filter);
 *   - system calls of another architecture (i386, x32) kill the process (libseccomp's default).
 * socketpair(AF_UNIX) stays: an unnamed pair reaches nothing, and libcurl's threaded resolver
 * makes one per lookup. Returns 0, or -errno. */
int pdx_refuse_new_unix_sockets(void);
