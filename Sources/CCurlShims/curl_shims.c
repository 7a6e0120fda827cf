#include "curl_shims.h"
#include "curl_library.h"

CURLcode pdx_easy_setopt_long(CURL *h, CURLoption o, long v) { return pdx_curl.easy_setopt(h, o, v); }
CURLcode pdx_easy_setopt_ptr(CURL *h, CURLoption o, void *v) { return pdx_curl.easy_setopt(h, o, v); }
CURLcode pdx_easy_setopt_str(CURL *h, CURLoption o, const char *v) { return pdx_curl.easy_setopt(h, o, v); }
CURLcode pdx_easy_setopt_write_fn(CURL *h, CURLoption o,
                                  size_t (*fn)(char *, size_t, size_t, void *)) {
    return pdx_curl.easy_setopt(h, o, fn);
}
CURLcode pdx_easy_getinfo_long(CURL *h, CURLINFO i, long *v) { return pdx_curl.easy_getinfo(h, i, v); }
CURLcode pdx_easy_getinfo_ptr(CURL *h, CURLINFO i, void **v) { return pdx_curl.easy_getinfo(h, i, v); }
CURLMcode pdx_multi_setopt_long(CURLM *m, CURLMoption o, long v) { return pdx_curl.multi_setopt(m, o, v); }
CURLMcode pdx_multi_setopt_ptr(CURLM *m, CURLMoption o, void *v) { return pdx_curl.multi_setopt(m, o, v); }
CURLMcode pdx_multi_setopt_socket_fn(CURLM *m,
                                     int (*fn)(CURL *, curl_socket_t, int, void *, void *)) {
    return pdx_curl.multi_setopt(m, CURLMOPT_SOCKETFUNCTION, fn);
}
CURLMcode pdx_multi_setopt_timer_fn(CURLM *m, int (*fn)(CURLM *, long, void *)) {
    return pdx_curl.multi_setopt(m, CURLMOPT_TIMERFUNCTION, fn);
}

/* ---- The trusted certificates, read once, off the loop ---------------------------------------
 * With the system's bundle (about 140 certificates), OpenSSL's parse took 10-50 ms in the first
 * TLS handshake after a start, on the loop thread: every bus call waited for it. The store is
 * built on a thread of its own at start instead, and each connection's SSL_CTX takes a reference
 * to it (CURLOPT_SSL_CTX_FUNCTION). Verification is unchanged: curl still verifies the peer and
 * the host name against it. Should the store not load, a connection loads the same places itself
 * (as curl would have), and fails where they hold nothing. */
#include <pthread.h>
#include <ctype.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t ca_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ca_done = PTHREAD_COND_INITIALIZER;
static int ca_state;           /* 0 not started, 1 loading, 2 loaded (ca_store, or NULL on failure) */
static X509_STORE *ca_store;
static char *ca_file, *ca_path;
static int ca_file_given;      /* ca_file is the user's (--ca-file), not the system's */
struct ca_waiter { void (*done)(void *); void *context; struct ca_waiter *next; };
static struct ca_waiter *ca_waiters;

/* Whether `dir` is an OpenSSL hashed directory (c_rehash, update-ca-certificates): it holds a
 * `XXXXXXXX.N` entry, named by a certificate's subject hash. */
static int ca_hashed_dir(const char *dir) {
    DIR *d = dir ? opendir(dir) : NULL;
    if (!d) return 0;
    int hashed = 0;
    struct dirent *e;
    while (!hashed && (e = readdir(d))) {
        const char *n = e->d_name;
        size_t i = 0;
        while (i < 8 && isxdigit((unsigned char)n[i])) i++;
        hashed = i == 8 && n[8] == '.' && isdigit((unsigned char)n[9]);
    }
    closedir(d);
    return hashed;
}

static void *ca_load(void *unused) {
    (void)unused;
    X509_STORE *store = pdx_curl.X509_STORE_new();
    /* The system's certificates as a hashed directory where there is one (Debian's /etc/ssl/certs,
     * made by update-ca-certificates from the same set as the bundle): OpenSSL then reads only the
     * issuer a handshake needs, by its subject hash, and keeps it in the store. Parsing the whole
     * bundle (140 certificates) took 26-36 ms, and the first request of a cold start waited for
     * it. A file given by the user, or a system with no hashed directory, is read whole. */
    const char *file = ca_file, *path = ca_path;
    if (file && path && !ca_file_given && ca_hashed_dir(path)) file = NULL;
    if (store && !pdx_curl.X509_STORE_load_locations(store, file, path)) {
        pdx_curl.X509_STORE_free(store);
        store = NULL;
    }
    /* As curl sets them on the store it reads itself (lib/vtls/openssl.c, with peer verification). */
    if (store) pdx_curl.X509_STORE_set_flags(store, X509_V_FLAG_TRUSTED_FIRST | X509_V_FLAG_PARTIAL_CHAIN);
    pthread_mutex_lock(&ca_lock);
    ca_store = store;
    ca_state = 2;
    struct ca_waiter *w = ca_waiters;
    ca_waiters = NULL;
    pthread_cond_broadcast(&ca_done);
    pthread_mutex_unlock(&ca_lock);
    while (w) {
        struct ca_waiter *next = w->next;
        w->done(w->context);
        free(w);
        w = next;
    }
    return NULL;
}

int pdx_ca_preload(const char *file, void (*done)(void *), void *context) {
    if (pdx_curl_load()) return -1;
    pthread_mutex_lock(&ca_lock);
    if (ca_state == 0) {
        const curl_version_info_data *v = pdx_curl.version_info(CURLVERSION_NOW);
        const char *f = file ? file : (v && v->age >= CURLVERSION_SEVENTH ? v->cainfo : NULL);
        const char *p = file ? NULL : (v && v->age >= CURLVERSION_SEVENTH ? v->capath : NULL);
        ca_file = f ? strdup(f) : NULL;
        ca_file_given = file != NULL;
        ca_path = p ? strdup(p) : NULL;
        pthread_attr_t attr;
        pthread_t thread;
        pthread_attr_init(&attr);
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        int started = (ca_file || ca_path) && pthread_create(&thread, &attr, ca_load, NULL) == 0;
        pthread_attr_destroy(&attr);
        if (!started) {
            pthread_mutex_unlock(&ca_lock);
            return -1;
        }
        ca_state = 1;
    }
    struct ca_waiter *w = ca_state == 1 ? malloc(sizeof *w) : NULL;
    if (w) {
        *w = (struct ca_waiter){done, context, ca_waiters};
        ca_waiters = w;
    }
    pthread_mutex_unlock(&ca_lock);
    if (!w) done(context);  /* loaded already (or no memory to wait): go on */
    return 0;
}

static CURLcode ca_ssl_ctx(CURL *curl, void *ssl_ctx, void *unused) {
    (void)curl; (void)unused;
    pthread_mutex_lock(&ca_lock);
    while (ca_state == 1) pthread_cond_wait(&ca_done, &ca_lock);
    X509_STORE *store = ca_store;
    if (store) pdx_curl.X509_STORE_up_ref(store);
    pthread_mutex_unlock(&ca_lock);
    if (store) {
        pdx_curl.SSL_CTX_set_cert_store((SSL_CTX *)ssl_ctx, store);
        return CURLE_OK;
    }
    return pdx_curl.SSL_CTX_load_verify_locations((SSL_CTX *)ssl_ctx, ca_file, ca_path) ? CURLE_OK : CURLE_SSL_CACERT_BADFILE;
}

CURLcode pdx_easy_use_preloaded_ca(CURL *h) {
    pthread_mutex_lock(&ca_lock);
    int started = ca_state != 0;
    pthread_mutex_unlock(&ca_lock);
    if (!started) return CURLE_OK;  /* curl reads its own */
    CURLcode r = pdx_curl.easy_setopt(h, CURLOPT_SSL_CTX_FUNCTION, ca_ssl_ctx);
    if (r != CURLE_OK) return CURLE_OK;  /* not OpenSSL: curl reads its own */
    pdx_curl.easy_setopt(h, CURLOPT_CAINFO, (char *)NULL);
    pdx_curl.easy_setopt(h, CURLOPT_CAPATH, (char *)NULL);
    return CURLE_OK;
}
