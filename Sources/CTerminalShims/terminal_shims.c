#include "terminal_shims.h"

#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

static struct termios saved_settings;
static int terminal_fd = -1, output_fd = -1;
static char leave_bytes[256];
static size_t leave_length;
static atomic_int armed;
static atomic_uint kitty_last;
static atomic_int kitty_tmux;

// Per thread: a trap runs its handler on the thread that trapped, and tests run side by side.
static _Thread_local char note[4096];
static _Thread_local volatile size_t note_length;

static void write_all(int fd, const char *p, size_t n) {
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return;
        p += w;
        n -= (size_t)w;
    }
}

void pokedex_terminal_arm(int fd, int out, const struct termios *saved, const char *leave, size_t length) {
    atomic_store(&armed, 0);
    saved_settings = *saved;
    terminal_fd = fd;
    output_fd = out;
    if (length > sizeof leave_bytes) length = sizeof leave_bytes;
    memcpy(leave_bytes, leave, length);
    leave_length = length;
    atomic_store(&armed, 1);
}

void pokedex_terminal_disarm(void) { atomic_store(&armed, 0); }

void pokedex_terminal_set_kitty(uint32_t last, int tmux) {
    atomic_store(&kitty_tmux, tmux);
    atomic_store(&kitty_last, last);
}

/// `ESC _ G a=d,d=I,i=N,q=2 ESC \`, every ESC doubled inside `ESC P tmux; … ESC \` for tmux.
static size_t kitty_delete(char *out, uint32_t id, int tmux) {
    char digits[12];
    size_t nd = 0;
    do { digits[nd++] = (char)('0' + id % 10); id /= 10; } while (id > 0);
    const char *esc = tmux ? "\033\033" : "\033";
    size_t n = 0;
    if (tmux) { memcpy(out + n, "\033Ptmux;", 7); n += 7; }
    memcpy(out + n, esc, strlen(esc)); n += strlen(esc);
    memcpy(out + n, "_Ga=d,d=I,i=", 12); n += 12;
    while (nd > 0) out[n++] = digits[--nd];
    memcpy(out + n, ",q=2", 4); n += 4;
    memcpy(out + n, esc, strlen(esc)); n += strlen(esc);
    out[n++] = '\\';
    if (tmux) { memcpy(out + n, "\033\\", 2); n += 2; }
    return n;
}

void pokedex_terminal_restore(void) {
    if (!atomic_exchange(&armed, 0)) return;
    int saved_errno = errno;
    uint32_t last = atomic_load(&kitty_last);
    int tmux = atomic_load(&kitty_tmux);
    char buffer[4096];
    size_t n = 0;
    for (uint32_t id = 1; id <= last && id != 0; id++) {
        if (n > sizeof buffer - 64) { write_all(output_fd, buffer, n); n = 0; }
        n += kitty_delete(buffer + n, id, tmux);
    }
    write_all(output_fd, buffer, n);
    write_all(output_fd, leave_bytes, leave_length);
    tcsetattr(terminal_fd, TCSAFLUSH, &saved_settings);
    errno = saved_errno;
}

void pokedex_crash_note(const char *text) {
    note_length = 0;
    if (text == NULL) return;
    size_t n = strlen(text);
    if (n > sizeof note - 1) n = sizeof note - 1;
    memcpy(note, text, n);
    note[n] = '\n';
    note_length = n + 1;
}

static void on_fatal(int sig) {
    pokedex_terminal_restore();
    size_t n = note_length;
    if (n > 0) write_all(2, note, n);
    // SA_RESETHAND put the default action back; SA_NODEFER lets it be delivered at once.
    raise(sig);
}

static atomic_int signal_pipe = -1;

void pokedex_signal_pipe_set(int fd) { atomic_store(&signal_pipe, fd); }

static void on_forwarded(int sig) {
    int saved_errno = errno;
    int fd = atomic_load(&signal_pipe);
    unsigned char byte = (unsigned char)sig;
    if (fd >= 0) (void)!write(fd, &byte, 1);
    errno = saved_errno;
}

void pokedex_signal_forward(int sig) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_forwarded;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    sigaction(sig, &action, NULL);
}

static char alternate_stack[64 * 1024];

void pokedex_install_fatal_handlers(void) {
    static int installed;
    if (installed) return;
    installed = 1;
    stack_t ss = {.ss_sp = alternate_stack, .ss_size = sizeof alternate_stack, .ss_flags = 0};
    sigaltstack(&ss, NULL);
    const int signals[] = {SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGTERM, SIGHUP, SIGQUIT};
    for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++) {
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_handler = on_fatal;
        sigemptyset(&action.sa_mask);
        action.sa_flags = SA_RESETHAND | SA_NODEFER | SA_ONSTACK;
        sigaction(signals[i], &action, NULL);
    }
}
