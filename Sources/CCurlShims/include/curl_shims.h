#pragma once
#include <curl/curl.h>

/* ---- libcurl, loaded when the service starts (curl_library.c) ----------------------------- */
/* Loads libcurl (and, through it, its OpenSSL) once; NULL when it is loaded, else why not. Every
 * function below needs it loaded first: libcurl is not linked, so that pokectl, the same
 * binary, never maps it. */
const char *pdx_curl_load(void);
/* The libcurl functions of the same names without the pdx_ prefix. */
CURLcode pdx_curl_global_init(long flags);
CURL *pdx_curl_easy_init(void);
void pdx_curl_easy_cleanup(CURL *h);
const char *pdx_curl_easy_strerror(CURLcode code);
CURLM *pdx_curl_multi_init(void);
CURLMcode pdx_curl_multi_cleanup(CURLM *m);
CURLMcode pdx_curl_multi_add_handle(CURLM *m, CURL *h);
CURLMcode pdx_curl_multi_remove_handle(CURLM *m, CURL *h);
CURLMcode pdx_curl_multi_socket_action(CURLM *m, curl_socket_t s, int mask, int *running);
CURLMsg *pdx_curl_multi_info_read(CURLM *m, int *left);
const char *pdx_curl_multi_strerror(CURLMcode code);
struct curl_slist *pdx_curl_slist_append(struct curl_slist *list, const char *s);
void pdx_curl_slist_free_all(struct curl_slist *list);

/* ---- libcurl: variadic setters and getters, one per argument type --------- */
CURLcode pdx_easy_setopt_long(CURL *h, CURLoption o, long v);
CURLcode pdx_easy_setopt_ptr(CURL *h, CURLoption o, void *v);
CURLcode pdx_easy_setopt_str(CURL *h, CURLoption o, const char *v);
CURLcode pdx_easy_setopt_write_fn(CURL *h, CURLoption o,
                                  size_t (*fn)(char *, size_t, size_t, void *));
CURLcode pdx_easy_getinfo_long(CURL *h, CURLINFO i, long *v);
CURLcode pdx_easy_getinfo_ptr(CURL *h, CURLINFO i, void **v);
CURLMcode pdx_multi_setopt_long(CURLM *m, CURLMoption o, long v);
CURLMcode pdx_multi_setopt_ptr(CURLM *m, CURLMoption o, void *v);
CURLMcode pdx_multi_setopt_socket_fn(CURLM *m,
                                     int (*fn)(CURL *, curl_socket_t, int, void *, void *));
CURLMcode pdx_multi_setopt_timer_fn(CURLM *m, int (*fn)(CURLM *, long, void *));

/* ---- The trusted certificates, read once on a thread of their own (curl_shims.c) -------- */
/* Starts reading `file` (NULL: curl's default bundle and directory) into one store, once per
 * process; `done(context)` runs when it is read (on the reading thread, or at once when it is
 * already). -1 when it cannot start (then `done` is not called, and curl reads its own). */
int pdx_ca_preload(const char *file, void (*done)(void *), void *context);
/* Has this transfer's TLS take that store instead of reading the certificates itself. */
CURLcode pdx_easy_use_preloaded_ca(CURL *h);

/* ---- Content decoding, off the loop (inflate_shims.c) ------------------------------------ */
/* A gzip, zlib or raw deflate stream being inflated. curl hands the body over as it came
 * (CURLOPT_HTTP_CONTENT_DECODING off), so that its inflate runs in the caller's task, not on
 * the loop thread. */
typedef struct pdx_inflater pdx_inflater;
/* raw: a bare deflate stream (no zlib or gzip header); else either header, detected. NULL: no memory. */
pdx_inflater *pdx_inflate_begin(int raw);
/* Inflates from `in` into `out`; says how much of each it used. 1: the stream ended; 0: it
 * wants more input or more room; -1: the data is not a valid stream. */
int pdx_inflate_run(pdx_inflater *s, const unsigned char *in, size_t in_len, size_t *in_used,
                    unsigned char *out, size_t out_len, size_t *out_used);
void pdx_inflate_end(pdx_inflater *s);

/* A whole body at once (libdeflate: about twice zlib's speed, and straight into `out`), where
 * the body is complete and the size it inflates to is known or guessed. */
enum {
    PDX_WHOLE_GZIP = 0, PDX_WHOLE_ZLIB = 1, PDX_WHOLE_RAW = 2,
};
enum {
    PDX_WHOLE_DONE = 0,       /* inflated: *out_used bytes */
    PDX_WHOLE_NO_ROOM = 1,    /* more than out_len bytes */
    PDX_WHOLE_NOT_WHOLE = 2,  /* a stream that ends before the body (a second gzip member…) */
    PDX_WHOLE_BAD = 3,        /* not valid data of that format */
    PDX_WHOLE_NO_MEMORY = 4,
};
int pdx_inflate_whole(int format, const unsigned char *in, size_t in_len,
                      unsigned char *out, size_t out_len, size_t *out_used);
