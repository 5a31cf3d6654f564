// Intentionally empty: the support module is its header (a weak reference to libFuzzer's driver).
#include "NetlinkFuzzerSupport.h"
