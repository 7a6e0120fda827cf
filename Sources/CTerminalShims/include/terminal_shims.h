#ifndef POKEDEX_TERMINAL_SHIMS_H
#define POKEDEX_TERMINAL_SHIMS_H

#include <stddef.h>
#include <stdint.h>
#include <termios.h>

/// What a dying pokectl does before it dies, in a signal handler, with async-signal-safe calls
/// only (write, tcsetattr, sigaction, raise): the terminal given back as it was found.
///
/// pokedex_terminal_arm saves the settings to restore and the bytes that leave the full screen
/// (mouse off, cursor on, main screen); pokedex_terminal_set_kitty says which kitty images were
/// sent (ids 1...last, freed on the way out). Both are copied: nothing is allocated in a handler.

/// Saves `saved` (the settings before raw mode) for `fd`, and `leave` (at most 255 bytes),
/// written to `out` on the way out. Arms the restore.
void pokedex_terminal_arm(int fd, int out, const struct termios *saved, const char *leave, size_t length);
/// The restore is done (or not wanted any more): a handler leaves the terminal alone.
void pokedex_terminal_disarm(void);
/// Kitty images 1...`last` were sent; `tmux`: wrapped for tmux's passthrough.
void pokedex_terminal_set_kitty(uint32_t last, int tmux);
/// Does the restore once, now (async-signal-safe): the leave bytes, the kitty deletes, the settings.
void pokedex_terminal_restore(void);

/// browse's signals (SIGWINCH, SIGINT, SIGTSTP, SIGCONT) as bytes on a pipe its loop polls, the
/// only thing a handler may safely do with them. The pipe's write end lives here, in C: a
/// handler may read a lock-free atomic int, and nothing of Swift's (a global's lazy
/// initialisation takes a lock), so none of browse's state is a Swift global.
/// Sets the write end (-1: none; a handler then drops the signal).
void pokedex_signal_pipe_set(int fd);
/// Installs the handler that writes `sig`'s number (one byte) to the pipe; SA_RESTART.
void pokedex_signal_forward(int sig);

/// Installs the handler for the ways a program dies (SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGABRT,
/// SIGFPE, SIGTERM, SIGHUP, SIGQUIT): restore, print the crash note if any, then the signal again
/// with its default action, so the exit status is still the signal's. On an alternate stack, so
/// that a stack overflow is covered too.
void pokedex_install_fatal_handlers(void);

/// A line (at most 4095 bytes) written to stderr if the calling thread dies of a signal (a trap):
/// what it was doing (a property test's sequence). NULL clears it.
void pokedex_crash_note(const char *text);

#endif
