#pragma once

#include <sys/socket.h>

/* ---- The last doors: no new Unix sockets once the service runs ------------------------
 * A seccomp filter (libseccomp) on the calling process and what it starts:
 *   - socket(): only AF_INET and AF_INET6; every other family fails with EAFNOSUPPORT, AF_UNIX
 *     first (the bus, the notify socket and the journal's stream are open before it is
 *     applied); netlink, packet, vsock and the rest are never needed (the unit's
 *     RestrictAddressFamilies= already leaves them out). The family and the type are compared
 *     as the kernel reads them, 32 bits: socket(AF_UNIX | 1 << 32, …) is AF_UNIX;
 *   - raw and packet sockets (SOCK_RAW, SOCK_PACKET) fail with EPERM, whatever the family;
 *   - socketpair(): only AF_UNIX's SOCK_STREAM (libcurl's threaded resolver makes one per lookup). A
 *     connected stream socket cannot send to a path (EISCONN); a datagram one could;
 *   - io_uring_setup fails with ENOSYS (an io_uring could open a socket past the filter);
 *   - system calls of another architecture (i386, x32) kill the process (libseccomp's default).
 * Returns 0, or -errno. */
int pdx_refuse_new_unix_sockets(void);

/* ---- The notify socket, outside the last doors -----------------------------------------
 * A datagram socket can send to any socket's path (sendto, sendmsg), whatever it was made
 * for; the service manager's notify socket is one. pdx_notify_relay hands it to a child
 * process (named pokedexd-notify) that holds nothing else: it reads each message from a
 * SOCK_SEQPACKET pair and sends it to `address`, under a seccomp filter of its own that allows
 * reading, that one sendto and exiting. It ends when the service's end of the pair closes (the
 * service exits, however it ends). The service keeps the other end, which reaches nothing
 * else: it closes `notify_fd` once this returns. The unit says NotifyAccess=all, so the
 * manager takes the child's messages as the service's.
 * Returns the service's end of the pair (close-on-exec), or -errno. */
int pdx_notify_relay(int notify_fd, const struct sockaddr *address, socklen_t length);
