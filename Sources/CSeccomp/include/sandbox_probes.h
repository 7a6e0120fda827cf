#pragma once

/* ---- The tests' probes of the last doors (POKEDEX_SANDBOX_SELFCHECK) --------------------
 * Each tries one way past them from inside the running service, as a process that has taken
 * over the service's code could, and returns 0 when it got through, else the errno that
 * stopped it (EINVAL for an unknown kind). `path` names a test's listening Unix socket: a
 * stream one for the connect kinds, a datagram one for the send kinds.
 *   unix-high        socket(AF_UNIX | 1 << 32, SOCK_STREAM) (raw syscall), connect(path)
 *   unix-type-high   socket(AF_UNIX, SOCK_STREAM | 1 << 32), connect(path)
 *   dgram-high       socket(AF_UNIX | 1 << 32, SOCK_DGRAM), sendto(path)
 *   pair-dgram       socketpair(AF_UNIX, SOCK_DGRAM), sendto(path)
 *   pair-high        socketpair(AF_UNIX | 1 << 32, SOCK_DGRAM | 1 << 32), sendto(path)
 *   pair-seqpacket   socketpair(AF_UNIX, SOCK_SEQPACKET)
 *   pair-sendmsg     socketpair(AF_UNIX, SOCK_STREAM) (allowed), sendmsg(msg_name = path)
 *   pair-sendto      socketpair(AF_UNIX, SOCK_STREAM) (allowed), sendto(path)
 *   held-dgram       every Unix datagram socket the service holds (the ones that honour an
 *                    address), sendto(path) and sendmsg(path); ENOENT when it holds none
 *   io-uring         io_uring_setup
 *   raw              socket(AF_INET, SOCK_RAW, IPPROTO_ICMP)
 *   packet           socket(AF_PACKET, SOCK_RAW)
 *   netlink          socket(AF_NETLINK, SOCK_RAW, NETLINK_AUDIT)
 *   vsock            socket(AF_VSOCK, SOCK_STREAM) */
int pdx_sandbox_probe(const char *kind, const char *path);
