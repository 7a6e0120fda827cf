#ifndef POKEDEX_LOCALE_SHIMS_H
#define POKEDEX_LOCALE_SHIMS_H

/// gettext for pokectl's and pokedexd's own words, and the locale's decimal separator.
/// glibc's libintl is a set of macros and variadic calls Swift does not import.

/// Reads the environment's messages locale (LC_ALL, LC_MESSAGES, LANG) for gettext alone (the
/// process's locale is not changed: strerror and other libraries stay English) and binds the
/// "pokedexd" text domain to `localedir` in UTF-8. Returns 0, or -1 when the locale is not
/// installed (the words stay English). Call once, before any lookup.
int pokedex_bind_messages(const char *localedir);

/// The translation of `msgid` in the "pokedexd" domain, or `msgid` itself (the same pointer).
/// Safe from any thread once bound.
const char *pokedex_gettext(const char *msgid);

/// The translation of `msgid` (or `plural`) for `n`, as the catalogue's plural rule picks it;
/// `msgid` for 1 and `plural` otherwise where there is none.
const char *pokedex_ngettext(const char *msgid, const char *plural, unsigned long n);

/// The environment's LC_NUMERIC decimal separator ("," in de_DE), in `out` (at most `size`
/// bytes with its NUL); "." where the locale is not installed.
void pokedex_decimal_point(char *out, unsigned long size);

#endif
