# log-txn check: exit 0 iff some transaction id has, in this order, a line "txn=ID open",
# a line whose second field is WARN with "txn=ID lock-timeout", and a line "txn=ID commit".
match($0, /txn=[0-9a-f]+ [a-z-]+/) {
    split(substr($0, RSTART + 4, RLENGTH - 4), part, " ")
    id = part[1]
    event = part[2]
    if (event == "open")
        state[id] = 1
    else if (event == "lock-timeout" && $2 == "WARN" && state[id] == 1)
        state[id] = 2
    else if (event == "commit" && state[id] == 2) {
        found = 1
        exit
    }
}
END { exit found ? 0 : 1 }
