/* status.c - names and messages of the status codes (STRAIT_ERRNO_MAP). */
#include "strait.h"

/* Name of a status code, e.g. "EJS". Any thread. */
const char *strait_err_name(int status) {
  switch (status) {
    case STRAIT_OK: return "OK";
#define XX(name, val, msg) case STRAIT_##name: return #name;
    STRAIT_ERRNO_MAP(XX)
#undef XX
  }
  return "UNKNOWN";
}

/* Message of a status code. Any thread. */
const char *strait_strerror(int status) {
  switch (status) {
    case STRAIT_OK: return "success";
#define XX(name, val, msg) case STRAIT_##name: return msg;
    STRAIT_ERRNO_MAP(XX)
#undef XX
  }
  return "unknown error";
}
