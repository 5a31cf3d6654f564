import NetStatus

print(NetworkPath.offline)
