#include "locale_shims.h"

#include <langinfo.h>
#include <libintl.h>
#include <locale.h>
#include <string.h>

#define DOMAIN "pokedexd"

/* The environment's messages locale, for gettext alone: the process's own locale stays C, so
 * strerror and every library's messages (in D-Bus errors, the journal) stay English, and no
 * thread's setlocale races another's. Set once, before the first lookup. */
static locale_t messages = (locale_t)0;

int pokedex_bind_messages(const char *localedir) {
    if (messages == (locale_t)0) messages = newlocale(LC_MESSAGES_MASK | LC_CTYPE_MASK, "", (locale_t)0);
    bindtextdomain(DOMAIN, localedir);
    bind_textdomain_codeset(DOMAIN, "UTF-8");
    return messages == (locale_t)0 ? -1 : 0;
}

const char *pokedex_gettext(const char *msgid) {
    if (messages == (locale_t)0) return msgid;
    locale_t previous = uselocale(messages);
    const char *translated = dgettext(DOMAIN, msgid);
    uselocale(previous);
    return translated;
}

const char *pokedex_ngettext(const char *msgid, const char *plural, unsigned long n) {
    if (messages == (locale_t)0) return n == 1 ? msgid : plural;
    locale_t previous = uselocale(messages);
    const char *translated = dngettext(DOMAIN, msgid, plural, n);
    uselocale(previous);
    return translated;
}

void pokedex_decimal_point(char *out, unsigned long size) {
    if (size == 0) return;
    strncpy(out, ".", size);
    out[size - 1] = 0;
    locale_t loc = newlocale(LC_NUMERIC_MASK, "", (locale_t)0);
    if (loc == (locale_t)0) return;
    const char *radix = nl_langinfo_l(RADIXCHAR, loc);
    if (radix && radix[0] && strlen(radix) < size) strncpy(out, radix, size);
    out[size - 1] = 0;
    freelocale(loc);
}
