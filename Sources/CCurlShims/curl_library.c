/* libcurl, loaded when the service starts rather than linked.
 *
 * pokedexd and pokectl are one binary (the Swift runtime is shipped once). Linked, libcurl would
 * be mapped at every start of pokectl too, with its thirty dependencies (OpenSSL, nghttp2, ssh,
 * LDAP, Kerberos…) and their constructors: that doubled pokectl's start-up. The service loads it
 * here instead, once, before any thread starts and before the sandbox closes the files. */
#include "curl_shims.h"
#include "curl_library.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

/* libcurl's SONAME since 7.16 (2006), the OpenSSL flavour's (libcurl4-openssl-dev's libcurl.so);
 * the package's Depends names its package (debian/rules, dpkg-shlibdeps). */
#define PDX_LIBCURL "libcurl.so.4"

struct pdx_curl_library pdx_curl;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char load_error[512];
static int loaded;

#ifndef PDX_CURL_PROBE
#define FIND(field, symbol)                                                                  \
    do {                                                                                     \
        pdx_curl.field = (__typeof__(pdx_curl.field))dlsym(lib, #symbol);                    \
        if (!pdx_curl.field) {                                                               \
            snprintf(load_error, sizeof load_error, "%s has no %s", PDX_LIBCURL, #symbol);   \
            goto fail;                                                                       \
        }                                                                                    \
    } while (0)
#else
/* debian/rules builds this file alone as a program linked against libcurl and OpenSSL (never
 * installed, never run), so that dpkg-shlibdeps names the packages of exactly these functions. */
#define FIND(field, symbol) pdx_curl.field = &symbol
int main(void) { return pdx_curl_load() != NULL; }
#endif

static void load(void) {
#ifndef PDX_CURL_PROBE
    /* RTLD_LAZY: each library binds as its package built it (libcurl itself with -z now), as when
     * it was linked; RTLD_NOW made every dependency bind at once, 0.3 ms of the service's start.
     * The functions called are all found here, before the service goes on. */
    void *lib = dlopen(PDX_LIBCURL, RTLD_LAZY | RTLD_LOCAL);
    if (!lib) {
        const char *why = dlerror();
        snprintf(load_error, sizeof load_error, "%s", why ? why : PDX_LIBCURL ": cannot be loaded");
        return;
    }
#endif
    FIND(global_init, curl_global_init);
    FIND(version_info, curl_version_info);
    FIND(easy_init, curl_easy_init);
    FIND(easy_cleanup, curl_easy_cleanup);
    FIND(easy_setopt, curl_easy_setopt);
    FIND(easy_getinfo, curl_easy_getinfo);
    FIND(easy_strerror, curl_easy_strerror);
    FIND(multi_init, curl_multi_init);
    FIND(multi_cleanup, curl_multi_cleanup);
    FIND(multi_setopt, curl_multi_setopt);
    FIND(multi_add_handle, curl_multi_add_handle);
    FIND(multi_remove_handle, curl_multi_remove_handle);
    FIND(multi_socket_action, curl_multi_socket_action);
    FIND(multi_info_read, curl_multi_info_read);
    FIND(multi_strerror, curl_multi_strerror);
    FIND(slist_append, curl_slist_append);
    FIND(slist_free_all, curl_slist_free_all);
    /* dlsym through libcurl's handle searches its dependencies too: curl's own OpenSSL. */
    FIND(X509_STORE_new, X509_STORE_new);
    FIND(X509_STORE_free, X509_STORE_free);
    FIND(X509_STORE_up_ref, X509_STORE_up_ref);
    FIND(X509_STORE_set_flags, X509_STORE_set_flags);
    FIND(X509_STORE_load_locations, X509_STORE_load_locations);
    FIND(SSL_CTX_set_cert_store, SSL_CTX_set_cert_store);
    FIND(SSL_CTX_load_verify_locations, SSL_CTX_load_verify_locations);
    loaded = 1;
#ifndef PDX_CURL_PROBE
    return;
fail:
    memset(&pdx_curl, 0, sizeof pdx_curl);
    dlclose(lib);
#endif
}

const char *pdx_curl_load(void) {
    pthread_once(&load_once, load);
    return loaded ? NULL : load_error;
}

/* What Swift calls, each the libcurl function of the same name. */
CURLcode pdx_curl_global_init(long flags) { return pdx_curl.global_init(flags); }
CURL *pdx_curl_easy_init(void) { return pdx_curl.easy_init(); }
void pdx_curl_easy_cleanup(CURL *h) { pdx_curl.easy_cleanup(h); }
const char *pdx_curl_easy_strerror(CURLcode code) { return pdx_curl.easy_strerror(code); }
CURLM *pdx_curl_multi_init(void) { return pdx_curl.multi_init(); }
CURLMcode pdx_curl_multi_cleanup(CURLM *m) { return pdx_curl.multi_cleanup(m); }
CURLMcode pdx_curl_multi_add_handle(CURLM *m, CURL *h) { return pdx_curl.multi_add_handle(m, h); }
CURLMcode pdx_curl_multi_remove_handle(CURLM *m, CURL *h) { return pdx_curl.multi_remove_handle(m, h); }
CURLMcode pdx_curl_multi_socket_action(CURLM *m, curl_socket_t s, int mask, int *running) {
    return pdx_curl.multi_socket_action(m, s, mask, running);
}
CURLMsg *pdx_curl_multi_info_read(CURLM *m, int *left) { return pdx_curl.multi_info_read(m, left); }
const char *pdx_curl_multi_strerror(CURLMcode code) { return pdx_curl.multi_strerror(code); }
struct curl_slist *pdx_curl_slist_append(struct curl_slist *list, const char *s) {
    return pdx_curl.slist_append(list, s);
}
void pdx_curl_slist_free_all(struct curl_slist *list) { pdx_curl.slist_free_all(list); }
