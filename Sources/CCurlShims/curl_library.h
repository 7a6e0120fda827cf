#pragma once
/* libcurl's functions and OpenSSL's, as pdx_curl_load found them (curl_library.c). Every call
 * to either library goes through this table: neither is linked, so a program that never loads
 * them (pokectl, the same binary) does not map them and their thirty dependencies. */
#include <curl/curl.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

struct pdx_curl_library {
    /* libcurl */
    __typeof__(curl_global_init) *global_init;
    __typeof__(curl_version_info) *version_info;
    __typeof__(curl_easy_init) *easy_init;
    __typeof__(curl_easy_cleanup) *easy_cleanup;
    __typeof__(curl_easy_setopt) *easy_setopt;
    __typeof__(curl_easy_getinfo) *easy_getinfo;
    __typeof__(curl_easy_strerror) *easy_strerror;
    __typeof__(curl_multi_init) *multi_init;
    __typeof__(curl_multi_cleanup) *multi_cleanup;
    __typeof__(curl_multi_setopt) *multi_setopt;
    __typeof__(curl_multi_add_handle) *multi_add_handle;
    __typeof__(curl_multi_remove_handle) *multi_remove_handle;
    __typeof__(curl_multi_socket_action) *multi_socket_action;
    __typeof__(curl_multi_info_read) *multi_info_read;
    __typeof__(curl_multi_strerror) *multi_strerror;
    __typeof__(curl_slist_append) *slist_append;
    __typeof__(curl_slist_free_all) *slist_free_all;
    /* OpenSSL, found through libcurl's own dependencies: the certificate store handed to curl's
     * SSL_CTX must be of the library curl uses. */
    __typeof__(X509_STORE_new) *X509_STORE_new;
    __typeof__(X509_STORE_free) *X509_STORE_free;
    __typeof__(X509_STORE_up_ref) *X509_STORE_up_ref;
    __typeof__(X509_STORE_set_flags) *X509_STORE_set_flags;
    __typeof__(X509_STORE_load_locations) *X509_STORE_load_locations;
    __typeof__(SSL_CTX_set_cert_store) *SSL_CTX_set_cert_store;
    __typeof__(SSL_CTX_load_verify_locations) *SSL_CTX_load_verify_locations;
};

/* Filled by pdx_curl_load; read only after it returned NULL (loaded). */
extern struct pdx_curl_library pdx_curl __attribute__((visibility("hidden")));
