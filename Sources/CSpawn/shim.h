#ifndef RESOLVEKIT_CSPAWN_SHIM_H
#define RESOLVEKIT_CSPAWN_SHIM_H

#include <spawn.h>

// glibc declares these two only under _GNU_SOURCE, which Swift's Glibc module is built without; both are in
// every glibc since 2.34 (Debian 12, Ubuntu 22.04). The child closes every descriptor from `from` up, so it
// inherits none but its standard streams, whatever the parent holds open (sockets of a thousand sessions).
int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);
int posix_spawn_file_actions_addchdir_np(posix_spawn_file_actions_t *restrict actions, const char *restrict path);

#endif
