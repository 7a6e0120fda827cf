#include "curl_shims.h"

CURLcode pdx_easy_setopt_long(CURL *h, CURLoption o, long v) { return curl_easy_setopt(h, o, v); }
CURLcode pdx_easy_setopt_ptr(CURL *h, CURLoption o, void *v) { return curl_easy_setopt(h, o, v); }
CURLcode pdx_easy_setopt_str(CURL *h, CURLoption o, const char *v) { return curl_easy_setopt(h, o, v); }
CURLcode pdx_easy_setopt_write_fn(CURL *h, CURLoption o,
                                  size_t (*fn)(char *, size_t, size_t, void *)) {
    return curl_easy_setopt(h, o, fn);
}
CURLcode pdx_easy_getinfo_long(CURL *h, CURLINFO i, long *v) { return curl_easy_getinfo(h, i, v); }
CURLcode pdx_easy_getinfo_ptr(CURL *h, CURLINFO i, void **v) { return curl_easy_getinfo(h, i, v); }
CURLMcode pdx_multi_setopt_long(CURLM *m, CURLMoption o, long v) { return curl_multi_setopt(m, o, v); }
CURLMcode pdx_multi_setopt_ptr(CURLM *m, CURLMoption o, void *v) { return curl_multi_setopt(m, o, v); }
CURLMcode pdx_multi_setopt_socket_fn(CURLM *m,
                                     int (*fn)(CURL *, curl_socket_t, int, void *, void *)) {
    return curl_multi_setopt(m, CURLMOPT_SOCKETFUNCTION, fn);
}
CURLMcode pdx_multi_setopt_timer_fn(CURLM *m, int (*fn)(CURLM *, long, void *)) {
    return curl_multi_setopt(m, CURLMOPT_TIMERFUNCTION, fn);
}
