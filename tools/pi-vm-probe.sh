#!/bin/sh
# tools/pi-check.sh's booted case, second boot [issue 31]: the arm64 userland that
# hardware/install.sh set up as pi (in systemd-nspawn) now boots a real kernel under
# qemu-system-aarch64, with a virtual network card. This runs in it at boot (the unit
# pi-check-probe.service, as root), says each fact on the serial console as
#   PICHECK<TAB>key<TAB>json
# (pi-check reads the console), and powers the machine off. Not installed on a Pi.
set -u
out() { printf '\nPICHECK\t%s\t%s\n' "$1" "$2" > /dev/ttyAMA0; }  # (a getty prompt may sit on the line)
lines() { python3 -c 'import json, sys; print(json.dumps(sys.stdin.read().strip().splitlines()))'; }
text() { python3 -c 'import json, sys; print(json.dumps(sys.stdin.read().strip()))'; }
since() { echo $(( $(date +%s) - $1 )); }
within() {  # within SECONDS COMMAND...: true once COMMAND is (tried once a second)
    n=$1; shift
    for i in $(seq 1 "$n"); do
        "$@" && return 0
        sleep 1
    done
    return 1
}
hub_log() { journalctl -u werewolf -b -o cat; }
hub_said() { hub_log | grep -q "$1"; }
hub_active() { [ "$(systemctl is-active werewolf)" = active ]; }
nm_connected() { nmcli -t -f STATE general 2>/dev/null | grep -q '^connected'; }
t0=$(date +%s)

out kernel "$(uname -srm | text)"
within 240 hub_active
out unit_at_boot "\"$(systemctl is-active werewolf)\""
out unit_enabled "\"$(systemctl is-enabled werewolf)\""
pid=$(systemctl show werewolf -p MainPID --value)
out unit_process "$(ps -o user=,group=,supgrp= -p "$pid" | python3 -c 'import json, sys
f = sys.stdin.read().split()
print(json.dumps({"user": f[0] if f else None, "group": f[1] if len(f) > 1 else None,
                  "groups": f[2].split(",") if len(f) > 2 else []}))')"
out failed_units "$(systemctl --failed --no-legend --plain | cut -d' ' -f1 | lines)"
out hostname "\"$(hostname)\""
# NetworkManager runs here (a real kernel): it brought the wired card up, as on a
# Pi with a cable, by DHCP from qemu's own network
within 60 nm_connected
out networkmanager "\"$(systemctl is-active NetworkManager)\""
out nm_devices "$(nmcli -t -f DEVICE,TYPE,STATE device | lines)"
out addresses "$(ip -4 -o addr show scope global | awk '{print $2" "$4}' | lines)"
within 60 hub_said '^Werewolf hub on'
out unit_said "$(hub_log | grep -E '^(Werewolf hub|Game master)' | sed 's/token=.*/token=…/' | lines)"
out ready true  # pi-check opens the hub from outside the machine now

# install.sh again, as its message says once NetworkManager runs: the hotspot profile
t1=$(date +%s)
if runuser -l pi -c 'cd ~/werewolf && PIP_CERT=/etc/ssl/host-ca.crt SSL_CERT_FILE=/etc/ssl/host-ca.crt hardware/install.sh' \
        > /var/log/pi-check-install-again.log 2>&1; then
    out install_again true
else
    out install_again false
fi
out install_again_s "$(since "$t1")"
out install_again_said "$(grep '^== ' /var/log/pi-check-install-again.log | grep -v 'passphrase' | lines)"
out hotspot_profile "$(nmcli -t -f connection.id,connection.autoconnect,802-11-wireless.mode,ipv4.method,ipv4.addresses con show werewolf-ap 2>&1 | lines)"
out dnsmasq "$(command -v dnsmasq >/dev/null && echo true || echo false)"
if nmcli -t -f TYPE device | grep -qx wifi; then
    out wifi_device true
else
    out wifi_device '"none: qemu'"'"'s virt machine has no Wi-Fi; the profile comes up on a Pi'"'"'s wlan0"'
fi
within 60 hub_active

# Avahi: the name phones open, answered over the network card (mDNS, multicast)
out avahi "$(timeout 30 avahi-resolve -4 -n "$(hostname).local" 2>&1 | text)"
out avahi_daemon "$(journalctl -u avahi-daemon -b -o cat | grep -E 'Host name is|Joining mDNS|IP_ADD_MEMBERSHIP' | sort -u | lines)"

# the cable pulled and the hotspot's address up after the hub started (a dummy card
# stands in for wlan0: the hub prefers a Wi-Fi address, and a dummy is not Wi-Fi, so
# the cable goes first), then the cable plugged in again
ip link add pi0 type dummy && ip link set pi0 multicast on up && ip addr add 192.168.4.1/24 dev pi0
nmcli device disconnect eth0 >/dev/null
t1=$(date +%s)
if within 30 hub_said 'now on http://192.168.4.1:'; then follows=true; else follows=false; fi
out address_follows "$follows"
out address_follows_s "$(since "$t1")"
out answers_on_address "$(python3 -c "import urllib.request as u
print('true' if u.urlopen('http://192.168.4.1:8000/', timeout=30).status == 200 else 'false')" 2>/dev/null || echo false)"
nmcli device connect eth0 >/dev/null
t1=$(date +%s)
if within 60 hub_said 'now on http://10.0.2.15:'; then back=true; else back=false; fi
out cable_follows "$back"
out cable_follows_s "$(since "$t1")"
out journal "$(hub_log | grep -v '[█▀▄]' | sed 's/token=.*/token=…/' | tail -n 10 | lines)"

# Pi OS 32-bit on a Pi 4/400/5's 64-bit kernel, for real: the armhf userland (as
# debootstrapped, with the checkout) under this arm64 kernel, in a chroot. uname
# says aarch64 because the kernel is 64-bit, not because a shim says so (the
# armhf-kernel64 case's); install.sh --no-system chooses packages there.
A=/srv/armhf
if [ -d "$A" ]; then
    mount -t proc proc "$A/proc" && mount --rbind /sys "$A/sys" && mount --rbind /dev "$A/dev"
    cp /etc/resolv.conf "$A/etc/resolv.conf"
    in_armhf() { chroot "$A" /usr/bin/env -i HOME=/root LANG=C.UTF-8 \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        PIP_CERT=/etc/ssl/host-ca.crt SSL_CERT_FILE=/etc/ssl/host-ca.crt \
        /bin/sh -c "cd /home/pi/werewolf && $1"; }
    out k64_kernel "$(in_armhf 'uname -srm' | text)"
    out k64_dpkg_arch "\"$(in_armhf 'dpkg --print-architecture')\""
    t1=$(date +%s)
    if in_armhf 'hardware/install.sh --no-system' > /var/log/pi-check-k64-install.log 2>&1; then
        out k64_installed true
    else
        out k64_installed false
    fi
    out k64_install_s "$(since "$t1")"
    out k64_install_said "$(grep '^== ' /var/log/pi-check-k64-install.log | lines)"
    out k64_python "$(in_armhf ".venv/bin/python -c 'import json, platform, struct
print(json.dumps({\"machine\": platform.machine(), \"bits\": struct.calcsize(\"P\") * 8}))'" 2>/dev/null || echo null)"
    out k64_packages "$(in_armhf '.venv/bin/python tools/pi-packages.py httptools cbor2 lgpio \
        gpiozero pillow pyyaml uvicorn' 2>/dev/null || echo null)"
    # what pip built from source: the wheels it made are kept in its cache
    out k64_compiled "$(find "$A/root/.cache/pip" -path '*/wheels/*' -name '*.whl' -printf '%f\n' 2>/dev/null | lines)"
    out k64_serve "$(in_armhf '.venv/bin/python tools/pi-serve-probe.py' 2>/dev/null || echo null)"
    if in_armhf '.venv/bin/werewolf doctor' > /var/log/pi-check-k64-doctor.log 2>&1; then
        out k64_doctor_ok true
    else
        out k64_doctor_ok false
    fi
fi
out probe_s "$(since "$t0")"
out done true
sleep 15  # pi-check's last look from outside
systemctl poweroff
