// netstatus-floor: the floor of NetStatus's design, for the benchmarks (Benchmarks/README.md, "the design floor").
//
// NetStatus keeps no routing table: after notifications that may move the default path it asks the kernel's own
// routing decision (RTM_GETROUTE for 8.8.8.8, as `ip route get 8.8.8.8`; Sources/NetStatusNetlink/RouteLookup.swift)
// and reports when the answer changed. This is that design with nothing else: epoll_wait on an rtnetlink socket
// subscribed to link, address and route notifications; per wake-up, every queued notification read (a batch), then
// one lookup per family asked on a second socket; one line written to standard output when an answer changed, and
// one at start. No decoding beyond the answer's out interface, gateway and source address, no interface state, no
// filter, no threads, no allocation. `ip monitor` does no lookup, so it is not this design's floor; this is.
//
//   netstatus-floor [--netns NAME] [--family 4|6|46]
//
// --netns NAME: watch the named network namespace (/run/netns/NAME; needs CAP_SYS_ADMIN). --family: the lookups
// asked per batch, IPv4's (default), IPv6's, or both: netstatus asks a family's lookup only when the namespace has
// an address of that family usable beyond the link (Sources/NetStatusNetlink/PathEvaluator.swift), and the
// benchmarks' namespaces have IPv4 only (a veth with 192.0.2.10/24, and IPv6 link-local addresses).
//
// Output lines: `ipv4 dev 2 via 192.0.2.1 src 192.0.2.10` or `ipv4 error 101` (ENETUNREACH); with both families,
// both answers on one line. Ends at SIGTERM or SIGINT (their default action: it holds nothing to clean up); exits 1
// on an error, said on standard error.
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

static void fail(const char *what) {
  fprintf(stderr, "netstatus-floor: %s: %s\n", what, strerror(errno));
  exit(1);
}

// Appends one family's answer to `out` (at most `size` bytes): the lookup sent on `fd` and its answer read.
static size_t lookup(int fd, int ipv4, unsigned sequence, char *out, size_t size) {
  struct {
    struct nlmsghdr header;
    struct rtmsg route;
    struct rtattr attribute;
    unsigned char address[16];
  } request;
  memset(&request, 0, sizeof request);
  size_t length = ipv4 ? 4 : 16;
  request.header.nlmsg_len = NLMSG_LENGTH(sizeof(struct rtmsg)) + RTA_LENGTH(length);
  request.header.nlmsg_type = RTM_GETROUTE;
  request.header.nlmsg_flags = NLM_F_REQUEST;
  request.header.nlmsg_seq = sequence;
  request.route.rtm_family = ipv4 ? AF_INET : AF_INET6;
  request.route.rtm_dst_len = (unsigned char)(length * 8);
  request.attribute.rta_len = (unsigned short)RTA_LENGTH(length);
  request.attribute.rta_type = RTA_DST;
  // The destinations of Sources/NetStatusNetlink/RouteLookup.swift: 8.8.8.8 and 2001:4860:4860::8888.
  static const unsigned char v4[4] = {8, 8, 8, 8};
  static const unsigned char v6[16] = {0x20, 0x01, 0x48, 0x60, 0x48, 0x60, 0, 0, 0, 0, 0, 0, 0, 0, 0x88, 0x88};
  memcpy(request.address, ipv4 ? v4 : v6, length);
  if (send(fd, &request, request.header.nlmsg_len, 0) < 0) fail("send RTM_GETROUTE");

  static unsigned char buffer[8192] __attribute__((aligned(NLMSG_ALIGNTO)));
  const char *family = ipv4 ? "ipv4" : "ipv6";
  for (;;) {
    ssize_t received = recv(fd, buffer, sizeof buffer, 0);
    if (received < 0) {
      if (errno == EINTR) continue;
      fail("recv the lookup's answer");
    }
    for (struct nlmsghdr *message = (struct nlmsghdr *)buffer; NLMSG_OK(message, (size_t)received);
         message = NLMSG_NEXT(message, received)) {
      if (message->nlmsg_seq != sequence) continue;  // an earlier lookup's late answer
      if (message->nlmsg_type == NLMSG_ERROR) {
        const struct nlmsgerr *error = NLMSG_DATA(message);
        return (size_t)snprintf(out, size, "%s error %d", family, -error->error);
      }
      if (message->nlmsg_type != RTM_NEWROUTE) continue;
      const struct rtmsg *route = NLMSG_DATA(message);
      int attributesLength = (int)RTM_PAYLOAD(message);
      int oif = 0;
      char gateway[INET6_ADDRSTRLEN] = "-", source[INET6_ADDRSTRLEN] = "-";
      for (const struct rtattr *attribute = RTM_RTA(route); RTA_OK(attribute, attributesLength);
           attribute = RTA_NEXT(attribute, attributesLength)) {
        if (attribute->rta_type == RTA_OIF) memcpy(&oif, RTA_DATA(attribute), sizeof oif);
        if (attribute->rta_type == RTA_GATEWAY)
          inet_ntop(route->rtm_family, RTA_DATA(attribute), gateway, sizeof gateway);
        if (attribute->rta_type == RTA_PREFSRC)
          inet_ntop(route->rtm_family, RTA_DATA(attribute), source, sizeof source);
      }
      return (size_t)snprintf(out, size, "%s dev %d via %s src %s", family, oif, gateway, source);
    }
  }
}

int main(int argc, char **argv) {
  const char *namespace = NULL;
  int ipv4 = 1, ipv6 = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--netns") == 0 && i + 1 < argc) {
      namespace = argv[++i];
    } else if (strcmp(argv[i], "--family") == 0 && i + 1 < argc) {
      const char *family = argv[++i];
      ipv4 = strchr(family, '4') != NULL;
      ipv6 = strchr(family, '6') != NULL;
    } else {
      fprintf(stderr, "usage: netstatus-floor [--netns NAME] [--family 4|6|46]\n");
      return 2;
    }
  }
  if (!ipv4 && !ipv6) {
    fprintf(stderr, "netstatus-floor: --family must name 4, 6 or both\n");
    return 2;
  }
  if (namespace) {
    char path[4096];
    snprintf(path, sizeof path, "/run/netns/%s", namespace);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) fail(path);
    if (setns(fd, CLONE_NEWNET) < 0) fail("setns");
    close(fd);
  }
  signal(SIGPIPE, SIG_IGN);  // a closed standard output fails the write, said on standard error

  int events = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK, NETLINK_ROUTE);
  if (events < 0) fail("socket (notifications)");
  struct sockaddr_nl local = {.nl_family = AF_NETLINK};
  local.nl_groups = RTMGRP_LINK | RTMGRP_IPV4_IFADDR | RTMGRP_IPV6_IFADDR | RTMGRP_IPV4_ROUTE | RTMGRP_IPV6_ROUTE;
  if (bind(events, (struct sockaddr *)&local, sizeof local) < 0) fail("bind (notifications)");
  int lookups = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
  if (lookups < 0) fail("socket (lookups)");
  struct sockaddr_nl kernel = {.nl_family = AF_NETLINK};
  if (connect(lookups, (struct sockaddr *)&kernel, sizeof kernel) < 0) fail("connect (lookups)");
  int poll = epoll_create1(EPOLL_CLOEXEC);
  if (poll < 0) fail("epoll_create1");
  struct epoll_event interest = {.events = EPOLLIN, .data.fd = events};
  if (epoll_ctl(poll, EPOLL_CTL_ADD, events, &interest) < 0) fail("epoll_ctl");

  char last[512] = "", answer[512];
  unsigned sequence = 0;
  static unsigned char buffer[65536] __attribute__((aligned(NLMSG_ALIGNTO)));
  for (int first = 1;; first = 0) {
    if (!first) {
      struct epoll_event ready;
      int count = epoll_wait(poll, &ready, 1, -1);
      if (count < 0) {
        if (errno == EINTR) continue;
        fail("epoll_wait");
      }
      // The batch: every notification queued by now. Any of them may move the path (ENOBUFS: some were lost).
      for (;;) {
        ssize_t received = recv(events, buffer, sizeof buffer, 0);
        if (received >= 0 || errno == ENOBUFS || errno == EINTR) continue;
        if (errno == EAGAIN) break;
        fail("recv (notifications)");
      }
    }
    size_t used = 0;
    if (ipv4) used += lookup(lookups, 1, ++sequence, answer + used, sizeof answer - used);
    if (ipv6) {
      if (used) answer[used++] = ' ';
      used += lookup(lookups, 0, ++sequence, answer + used, sizeof answer - used);
    }
    if (strcmp(answer, last) == 0) continue;
    memcpy(last, answer, used + 1);
    answer[used] = '\n';
    if (write(STDOUT_FILENO, answer, used + 1) < 0) fail("write");
    answer[used] = '\0';
  }
}
