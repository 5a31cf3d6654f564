/// Generic netlink datagrams for the nl80211 decoders, written out byte by byte (x86_64, little-endian) from the
/// layouts of `linux/netlink.h`, `linux/genetlink.h` and `linux/nl80211.h`, as the kernel sends them: nlmsghdr,
/// genlmsghdr, then attributes (`struct nlattr { u16 nla_len; u16 nla_type; }` and the value, each padded to 4
/// bytes; `nla_len` counts the header and the value, not the padding; a nested attribute's value is attributes).
///
/// The kernel that ran the tests has no Wi-Fi device (no mac80211_hwsim), so these are not recorded but built from
/// what the kernel's nl80211.c puts in each message (`nl80211_send_station`, `nl80211_put_sta_rate`,
/// `nl80211_send_connect_result`, `nl80211_send_roamed`, `nl80211_send_disconnected`, `ctrl_fill_info`), in its
/// order: the datagrams `iw dev wlan0 station dump` and `iw event` would receive. nl80211's family id (0x1c) and its
/// groups' ids are the kernel's to allocate; these are one boot's. Only ``familyNotFound`` was recorded, from the
/// test machine's kernel (6.18, no cfg80211). `Fuzz/corpus/genl-*` hold the same bytes (`FuzzCorpusTests`).
enum CapturedNL80211 {
  /// nl80211's family id in these datagrams.
  static let family: UInt16 = 0x1c
  /// The port the answers are addressed to.
  static let portID: UInt32 = 14991

  /// `iw dev wlan0 station dump` on a client: the access point, heard at -52 dBm (-54 on average), sent to at
  /// 866.7 Mbit/s (VHT MCS 9, two streams, 80 MHz, short guard interval); then the end of the dump.
  static let stationDump: [UInt8] = [
    0x90, 0x00, 0x00, 0x00,  // nlmsghdr: nlmsg_len 144
    0x1c, 0x00,  //   nlmsg_type 0x1c: nl80211's family id (allocated by the kernel; this capture's)
    0x02, 0x00,  //   nlmsg_flags 0x2: NLM_F_MULTI
    0x02, 0x00, 0x00, 0x00,  //   nlmsg_seq 2
    0x8f, 0x3a, 0x00, 0x00,  //   nlmsg_pid 14991
    0x13, 0x01, 0x00, 0x00,  // genlmsghdr: cmd 19 (NL80211_CMD_NEW_STATION), version 1, reserved 0
    0x08, 0x00, 0x03, 0x00,  // NL80211_ATTR_IFINDEX: nla_len 8, nla_type 3
    0x03, 0x00, 0x00, 0x00,  //   u32 3: wlan0
    0x0a, 0x00, 0x06, 0x00,  // NL80211_ATTR_MAC: nla_len 10, nla_type 6
    0x02, 0x11, 0x22, 0x33, 0x44, 0x55,  //   the access point, 02:11:22:33:44:55
    0x00, 0x00,  //   padding to 4 bytes
    0x08, 0x00, 0x2e, 0x00,  // NL80211_ATTR_GENERATION: nla_len 8, nla_type 46
    0x07, 0x00, 0x00, 0x00,  //   u32 7: the station list's generation
    0x60, 0x00, 0x15, 0x00,  // NL80211_ATTR_STA_INFO (nested): nla_len 96, nla_type 21
    0x08, 0x00, 0x01, 0x00,  //   NL80211_STA_INFO_INACTIVE_TIME: nla_len 8, nla_type 1
    0x78, 0x00, 0x00, 0x00,  //     u32 120 ms
    0x08, 0x00, 0x02, 0x00,  //   NL80211_STA_INFO_RX_BYTES: nla_len 8, nla_type 2
    0x81, 0xad, 0xdf, 0x02,  //     u32 48213377
    0x08, 0x00, 0x03, 0x00,  //   NL80211_STA_INFO_TX_BYTES: nla_len 8, nla_type 3
    0x04, 0x20, 0x4e, 0x00,  //     u32 5120004
    0x05, 0x00, 0x07, 0x00,  //   NL80211_STA_INFO_SIGNAL: nla_len 5, nla_type 7
    0xcc,  //     u8 0xcc: s8 -52 dBm
    0x00, 0x00, 0x00,  //     padding to 4 bytes
    0x05, 0x00, 0x0d, 0x00,  //   NL80211_STA_INFO_SIGNAL_AVG: nla_len 5, nla_type 13
    0xca,  //     u8 0xca: s8 -54 dBm
    0x00, 0x00, 0x00,  //     padding to 4 bytes
    0x2c, 0x00, 0x08, 0x00,  //   NL80211_STA_INFO_TX_BITRATE (nested): nla_len 44, nla_type 8
    0x08, 0x00, 0x05, 0x00,  //     NL80211_RATE_INFO_BITRATE32: nla_len 8, nla_type 5
    0xdb, 0x21, 0x00, 0x00,  //       u32 8667: 866.7 Mbit/s, in 100 kbit/s
    0x06, 0x00, 0x01, 0x00,  //     NL80211_RATE_INFO_BITRATE: nla_len 6, nla_type 1
    0xdb, 0x21,  //       u16 8667: the same, as it fits 16 bits
    0x00, 0x00,  //       padding to 4 bytes
    0x05, 0x00, 0x06, 0x00,  //     NL80211_RATE_INFO_VHT_MCS: nla_len 5, nla_type 6
    0x09,  //       u8 9
    0x00, 0x00, 0x00,  //       padding to 4 bytes
    0x05, 0x00, 0x07, 0x00,  //     NL80211_RATE_INFO_VHT_NSS: nla_len 5, nla_type 7
    0x02,  //       u8 2 spatial streams
    0x00, 0x00, 0x00,  //       padding to 4 bytes
    0x04, 0x00, 0x08, 0x00,  //     NL80211_RATE_INFO_80_MHZ_WIDTH (a flag, no value): nla_len 4, nla_type 8
    0x04, 0x00, 0x04, 0x00,  //     NL80211_RATE_INFO_SHORT_GI (a flag, no value): nla_len 4, nla_type 4
    0x08, 0x00, 0x10, 0x00,  //   NL80211_STA_INFO_CONNECTED_TIME: nla_len 8, nla_type 16
    0x10, 0x0e, 0x00, 0x00,  //     u32 3600 s
    0x14, 0x00, 0x00, 0x00,  // nlmsghdr: nlmsg_len 20
    0x03, 0x00,  //   nlmsg_type 3: NLMSG_DONE
    0x02, 0x00,  //   nlmsg_flags 0x2: NLM_F_MULTI
    0x02, 0x00, 0x00, 0x00,  //   nlmsg_seq 2
    0x8f, 0x3a, 0x00, 0x00,  //   nlmsg_pid 14991
    0x00, 0x00, 0x00, 0x00,  //   the dump's error: 0
  ]

  /// `iw dev wlan1 station get 02:11:22:33:44:66`: a station whose driver reports neither signal nor bitrate.
  static let stationWithoutSignal: [UInt8] = [
    0x54, 0x00, 0x00, 0x00,  // nlmsghdr: nlmsg_len 84
    0x1c, 0x00,  //   nlmsg_type 0x1c: nl80211's family id
    0x00, 0x00,  //   nlmsg_flags 0x0: none: a single answer
    0x03, 0x00, 0x00, 0x00,  //   nlmsg_seq 3
    0x8f, 0x3a, 0x00, 0x00,  //   nlmsg_pid 14991
    0x13, 0x01, 0x00, 0x00,  // genlmsghdr: cmd 19 (NL80211_CMD_NEW_STATION), version 1, reserved 0
    0x08, 0x00, 0x03, 0x00,  // NL80211_ATTR_IFINDEX: nla_len 8, nla_type 3
    0x04, 0x00, 0x00, 0x00,  //   u32 4: wlan1
    0x0a, 0x00, 0x06, 0x00,  // NL80211_ATTR_MAC: nla_len 10, nla_type 6
    0x02, 0x11, 0x22, 0x33, 0x44, 0x66,  //   the access point, 02:11:22:33:44:66
    0x00, 0x00,  //   padding to 4 bytes
    0x08, 0x00, 0x2e, 0x00,  // NL80211_ATTR_GENERATION: nla_len 8, nla_type 46
    0x02, 0x00, 0x00, 0x00,  //   u32 2
    0x24, 0x00, 0x15, 0x00,  // NL80211_ATTR_STA_INFO (nested): nla_len 36, nla_type 21
    0x08, 0x00, 0x01, 0x00,  //   NL80211_STA_INFO_INACTIVE_TIME: nla_len 8, nla_type 1
    0x1e, 0x00, 0x00, 0x00,  //     u32 30 ms
    0x08, 0x00, 0x02, 0x00,  //   NL80211_STA_INFO_RX_BYTES: nla_len 8, nla_type 2
    0x00, 0x04, 0x00, 0x00,  //     u32 1024
    0x08, 0x00, 0x03, 0x00,  //   NL80211_STA_INFO_TX_BYTES: nla_len 8, nla_type 3
    0x00, 0x08, 0x00, 0x00,  //     u32 2048
    0x08, 0x00, 0x10, 0x00,  //   NL80211_STA_INFO_CONNECTED_TIME: nla_len 8, nla_type 16
    0x05, 0x00, 0x00, 0x00,  //     u32 5 s
  ]

  /// `iw event`: wlan0 connected to 02:11:22:33:44:55 (the mlme group).
  static let connect: [UInt8] = [
    0x50, 0x00, 0x00, 0x00,  // nlmsghdr: nlmsg_len 80
    0x1c, 0x00,  //   nlmsg_type 0x1c: nl80211's family id
    0x00, 0x00,  //   nlmsg_flags 0x0: none: a multicast event
    0x00, 0x00, 0x00, 0x00,  //   nlmsg_seq 0
    0x00, 0x00, 0x00, 0x00,  //   nlmsg_pid 0
    0x2e, 0x01, 0x00, 0x00,  // genlmsghdr: cmd 46 (NL80211_CMD_CONNECT), version 1, reserved 0
    0x08, 0x00, 0x01, 0x00,  // NL80211_ATTR_WIPHY: nla_len 8, nla_type 1
    0x00, 0x00, 0x00, 0x00,  //   u32 0: phy0
    0x08, 0x00, 0x03, 0x00,  // NL80211_ATTR_IFINDEX: nla_len 8, nla_type 3
    0x03, 0x00, 0x00, 0x00,  //   u32 3: wlan0
    0x0a, 0x00, 0x06, 0x00,  // NL80211_ATTR_MAC: nla_len 10, nla_type 6
    0x02, 0x11, 0x22, 0x33, 0x44, 0x55,  //   the access point (BSSID), 02:11:22:33:44:55
    0x00, 0x00,  //   padding to 4 bytes
    0x06, 0x00, 0x48, 0x00,  // NL80211_ATTR_STATUS_CODE: nla_len 6, nla_type 72
    0x00, 0x00,  //   u16 0: success
    0x00, 0x00,  //   padding to 4 bytes
    0x0a, 0x00, 0x4d, 0x00,  // NL80211_ATTR_REQ_IE: nla_len 10, nla_type 77
    0x00, 0x04, 0x68, 0x6f, 0x6d, 0x65,  //   the request's IEs: SSID "home"
    0x00, 0x00,  //   padding to 4 bytes
    0x0a, 0x00, 0x4e, 0x00,  // NL80211_ATTR_RESP_IE: nla_len 10, nla_type 78
    0x01, 0x04, 0x82, 0x84, 0x8b, 0x96,  //   the response's IEs: supported rates
    0x00, 0x00,  //   padding to 4 bytes
  ]

  /// `iw event`: wlan0 roamed to 02:11:22:33:44:66.
  static let roam: [UInt8] = [
    0x48, 0x00, 0x00, 0x00,  // nlmsghdr: nlmsg_len 72
    0x1c, 0x00,  //   nlmsg_type 0x1c: nl80211's family id
    0x00, 0x00,  //   nlmsg_flags 0x0: none: a multicast event
    0x00, 0x00, 0x00, 0x00,  //   nlmsg_seq 0
    0x00, 0x00, 0x00, 0x00,  //   nlmsg_pid 0
    0x2f, 0x01, 0x00, 0x00,  // genlmsghdr: cmd 47 (NL80211_CMD_ROAM), version 1, reserved 0
    0x08, 0x00, 0x01, 0x00,  // NL80211_ATTR_WIPHY: nla_len 8, nla_type 1
    0x00, 0x00, 0x00, 0x00,  //   u32 0: phy0
    0x08, 0x00, 0x03, 0x00,  // NL80211_ATTR_IFINDEX: nla_len 8, nla_type 3
    0x03, 0x00, 0x00, 0x00,  //   u32 3: wlan0
    0x0a, 0x00, 0x06, 0x00,  // NL80211_ATTR_MAC: nla_len 10, nla_type 6
    0x02, 0x11, 0x22, 0x33, 0x44, 0x66,  //   the new access point (BSSID), 02:11:22:33:44:66
    0x00, 0x00,  //   padding to 4 bytes
    0x0a, 0x00, 0x4d, 0x00,  // NL80211_ATTR_REQ_IE: nla_len 10, nla_type 77
    0x00, 0x04, 0x68, 0x6f, 0x6d, 0x65,  //   the request's IEs: SSID "home"
    0x00, 0x00,  //   padding to 4 bytes
    0x0a, 0x00, 0x4e, 0x00,  // NL80211_ATTR_RESP_IE: nla_len 10, nla_type 78
    0x01, 0x04, 0x82, 0x84, 0x8b, 0x96,  //   the response's IEs: supported rates
    0x00, 0x00,  //   padding to 4 bytes
  ]

  /// `iw event`: the access point disconnected wlan0 (reason 4, inactivity).
  static let disconnect: [UInt8] = [
    0x30, 0x00, 0x00, 0x00,  // nlmsghdr: nlmsg_len 48
    0x1c, 0x00,  //   nlmsg_type 0x1c: nl80211's family id
    0x00, 0x00,  //   nlmsg_flags 0x0: none: a multicast event
    0x00, 0x00, 0x00, 0x00,  //   nlmsg_seq 0
    0x00, 0x00, 0x00, 0x00,  //   nlmsg_pid 0
    0x30, 0x01, 0x00, 0x00,  // genlmsghdr: cmd 48 (NL80211_CMD_DISCONNECT), version 1, reserved 0
    0x08, 0x00, 0x01, 0x00,  // NL80211_ATTR_WIPHY: nla_len 8, nla_type 1
    0x00, 0x00, 0x00, 0x00,  //   u32 0: phy0
    0x08, 0x00, 0x03, 0x00,  // NL80211_ATTR_IFINDEX: nla_len 8, nla_type 3
    0x03, 0x00, 0x00, 0x00,  //   u32 3: wlan0
    0x06, 0x00, 0x36, 0x00,  // NL80211_ATTR_REASON_CODE: nla_len 6, nla_type 54
    0x04, 0x00,  //   u16 4: disassociated due to inactivity
    0x00, 0x00,  //   padding to 4 bytes
    0x04, 0x00, 0x47, 0x00,  // NL80211_ATTR_DISCONNECTED_BY_AP (a flag, no value): nla_len 4, nla_type 71
  ]

  /// The controller's answer to CTRL_CMD_GETFAMILY for "nl80211": its id and its six multicast groups (its
  /// operations abridged to two: the kernel lists every one).
  static let controllerFamily: [UInt8] = [
    0x00, 0x01, 0x00, 0x00,  // nlmsghdr: nlmsg_len 256
    0x10, 0x00,  //   nlmsg_type 0x10: GENL_ID_CTRL
    0x00, 0x00,  //   nlmsg_flags 0x0: none: a single answer
    0x01, 0x00, 0x00, 0x00,  //   nlmsg_seq 1
    0x8f, 0x3a, 0x00, 0x00,  //   nlmsg_pid 14991
    0x01, 0x02, 0x00, 0x00,  // genlmsghdr: cmd 1 (CTRL_CMD_NEWFAMILY), version 2, reserved 0
    0x0c, 0x00, 0x02, 0x00,  // CTRL_ATTR_FAMILY_NAME: nla_len 12, nla_type 2
    0x6e, 0x6c, 0x38, 0x30, 0x32, 0x31, 0x31, 0x00,  //   "nl80211", NUL-terminated
    0x06, 0x00, 0x01, 0x00,  // CTRL_ATTR_FAMILY_ID: nla_len 6, nla_type 1
    0x1c, 0x00,  //   u16 0x1c
    0x00, 0x00,  //   padding to 4 bytes
    0x08, 0x00, 0x03, 0x00,  // CTRL_ATTR_VERSION: nla_len 8, nla_type 3
    0x01, 0x00, 0x00, 0x00,  //   u32 1
    0x08, 0x00, 0x04, 0x00,  // CTRL_ATTR_HDRSIZE: nla_len 8, nla_type 4
    0x00, 0x00, 0x00, 0x00,  //   u32 0: no family header
    0x08, 0x00, 0x05, 0x00,  // CTRL_ATTR_MAXATTR: nla_len 8, nla_type 5
    0x45, 0x01, 0x00, 0x00,  //   u32 325: NL80211_ATTR_MAX
    0x2c, 0x00, 0x06, 0x00,  // CTRL_ATTR_OPS (nested; abridged to two operations): nla_len 44, nla_type 6
    0x14, 0x00, 0x01, 0x00,  //   operation 1 (nested): nla_len 20, nla_type 1
    0x08, 0x00, 0x01, 0x00,  //     CTRL_ATTR_OP_ID: nla_len 8, nla_type 1
    0x11, 0x00, 0x00, 0x00,  //       u32 17: NL80211_CMD_GET_STATION
    0x08, 0x00, 0x02, 0x00,  //     CTRL_ATTR_OP_FLAGS: nla_len 8, nla_type 2
    0x0e, 0x00, 0x00, 0x00,  //       u32 0xe: GENL_CMD_CAP_DO | GENL_CMD_CAP_DUMP | GENL_CMD_CAP_HASPOL
    0x14, 0x00, 0x02, 0x00,  //   operation 2 (nested): nla_len 20, nla_type 2
    0x08, 0x00, 0x01, 0x00,  //     CTRL_ATTR_OP_ID: nla_len 8, nla_type 1
    0x12, 0x00, 0x00, 0x00,  //       u32 18: NL80211_CMD_SET_STATION
    0x08, 0x00, 0x02, 0x00,  //     CTRL_ATTR_OP_FLAGS: nla_len 8, nla_type 2
    0x0b, 0x00, 0x00, 0x00,  //       u32 0xb: GENL_ADMIN_PERM | GENL_CMD_CAP_DO | GENL_CMD_CAP_HASPOL
    0x94, 0x00, 0x07, 0x00,  // CTRL_ATTR_MCAST_GROUPS (nested): nla_len 148, nla_type 7
    0x18, 0x00, 0x01, 0x00,  //   group 1 (nested): nla_len 24, nla_type 1
    0x08, 0x00, 0x02, 0x00,  //     CTRL_ATTR_MCAST_GRP_ID: nla_len 8, nla_type 2
    0x04, 0x00, 0x00, 0x00,  //       u32 4
    0x0b, 0x00, 0x01, 0x00,  //     CTRL_ATTR_MCAST_GRP_NAME: nla_len 11, nla_type 1
    0x63, 0x6f, 0x6e, 0x66, 0x69, 0x67, 0x00,  //       "config", NUL-terminated
    0x00,  //       padding to 4 bytes
    0x18, 0x00, 0x02, 0x00,  //   group 2 (nested): nla_len 24, nla_type 2
    0x08, 0x00, 0x02, 0x00,  //     CTRL_ATTR_MCAST_GRP_ID: nla_len 8, nla_type 2
    0x05, 0x00, 0x00, 0x00,  //       u32 5
    0x09, 0x00, 0x01, 0x00,  //     CTRL_ATTR_MCAST_GRP_NAME: nla_len 9, nla_type 1
    0x73, 0x63, 0x61, 0x6e, 0x00,  //       "scan", NUL-terminated
    0x00, 0x00, 0x00,  //       padding to 4 bytes
    0x1c, 0x00, 0x03, 0x00,  //   group 3 (nested): nla_len 28, nla_type 3
    0x08, 0x00, 0x02, 0x00,  //     CTRL_ATTR_MCAST_GRP_ID: nla_len 8, nla_type 2
    0x06, 0x00, 0x00, 0x00,  //       u32 6
    0x0f, 0x00, 0x01, 0x00,  //     CTRL_ATTR_MCAST_GRP_NAME: nla_len 15, nla_type 1
    0x72, 0x65, 0x67, 0x75, 0x6c, 0x61, 0x74, 0x6f, 0x72, 0x79, 0x00,  //       "regulatory", NUL-terminated
    0x00,  //       padding to 4 bytes
    0x18, 0x00, 0x04, 0x00,  //   group 4 (nested): nla_len 24, nla_type 4
    0x08, 0x00, 0x02, 0x00,  //     CTRL_ATTR_MCAST_GRP_ID: nla_len 8, nla_type 2
    0x07, 0x00, 0x00, 0x00,  //       u32 7
    0x09, 0x00, 0x01, 0x00,  //     CTRL_ATTR_MCAST_GRP_NAME: nla_len 9, nla_type 1
    0x6d, 0x6c, 0x6d, 0x65, 0x00,  //       "mlme", NUL-terminated
    0x00, 0x00, 0x00,  //       padding to 4 bytes
    0x18, 0x00, 0x05, 0x00,  //   group 5 (nested): nla_len 24, nla_type 5
    0x08, 0x00, 0x02, 0x00,  //     CTRL_ATTR_MCAST_GRP_ID: nla_len 8, nla_type 2
    0x08, 0x00, 0x00, 0x00,  //       u32 8
    0x0b, 0x00, 0x01, 0x00,  //     CTRL_ATTR_MCAST_GRP_NAME: nla_len 11, nla_type 1
    0x76, 0x65, 0x6e, 0x64, 0x6f, 0x72, 0x00,  //       "vendor", NUL-terminated
    0x00,  //       padding to 4 bytes
    0x14, 0x00, 0x06, 0x00,  //   group 6 (nested): nla_len 20, nla_type 6
    0x08, 0x00, 0x02, 0x00,  //     CTRL_ATTR_MCAST_GRP_ID: nla_len 8, nla_type 2
    0x09, 0x00, 0x00, 0x00,  //       u32 9
    0x08, 0x00, 0x01, 0x00,  //     CTRL_ATTR_MCAST_GRP_NAME: nla_len 8, nla_type 1
    0x6e, 0x61, 0x6e, 0x00,  //       "nan", NUL-terminated
  ]

  /// CTRL_CMD_GETFAMILY for "nl80211" answered by a kernel without cfg80211 (recorded on the test machine).
  static let familyNotFound: [UInt8] = [
    0x34, 0x00, 0x00, 0x00,  // nlmsghdr: nlmsg_len 52
    0x02, 0x00,  //   nlmsg_type 2: NLMSG_ERROR
    0x00, 0x00,  //   nlmsg_flags 0: the request follows whole (no NLM_F_CAPPED)
    0x07, 0x00, 0x00, 0x00,  //   nlmsg_seq 7
    0xdf, 0x38, 0x00, 0x00,  //   nlmsg_pid 14559
    0xfe, 0xff, 0xff, 0xff,  // nlmsgerr: error -2, -ENOENT
    0x20, 0x00, 0x00, 0x00,  //   the request's nlmsghdr: nlmsg_len 32
    0x10, 0x00, 0x01, 0x00,  //     nlmsg_type GENL_ID_CTRL, nlmsg_flags NLM_F_REQUEST
    0x07, 0x00, 0x00, 0x00,  //     nlmsg_seq 7
    0x00, 0x00, 0x00, 0x00,  //     nlmsg_pid 0
    0x03, 0x01, 0x00, 0x00,  //   the request's genlmsghdr: CTRL_CMD_GETFAMILY, version 1
    0x0c, 0x00, 0x02, 0x00,  //   CTRL_ATTR_FAMILY_NAME: nla_len 12, nla_type 2
    0x6e, 0x6c, 0x38, 0x30, 0x32, 0x31, 0x31, 0x00,  //     "nl80211", NUL-terminated
  ]

  /// Every datagram above, by the name of its seed in `Fuzz/corpus`.
  static let seeds: [String: [UInt8]] = [
    "genl-nl80211-station-dump": stationDump, "genl-nl80211-station-without-signal": stationWithoutSignal,
    "genl-nl80211-connect": connect, "genl-nl80211-roam": roam, "genl-nl80211-disconnect": disconnect,
    "genl-ctrl-nl80211": controllerFamily, "genl-ctrl-not-found": familyNotFound,
  ]
}
