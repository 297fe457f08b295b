/* Stand-in for <zephyr/sys/slist.h> (Zephyr 4.3.0): only the node type that struct
 * gpio_callback embeds. See tests/zephyr/include/zephyr/README.txt. */
#ifndef ZEPHYR_STANDIN_SYS_SLIST_H
#define ZEPHYR_STANDIN_SYS_SLIST_H

struct _snode {
    struct _snode *next;
};
typedef struct _snode sys_snode_t;

#endif
