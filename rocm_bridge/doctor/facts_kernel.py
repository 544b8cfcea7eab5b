"""Facts about the amdgpu kernel module and what lets the kernel load it: the module on disk, Secure Boot, lockdown,
the module-signing (MOK) key and what the kernel said.

They tell "module not built" from "module built but refused" (an unsigned DKMS build under Secure Boot, a key never
enrolled), which need different fixes. The sources are the EFI SecureBoot variable (else mokutil --sb-state),
/sys/kernel/security/lockdown, the keys DKMS / shim-signed / akmods sign with, mokutil --test-key, dmesg and
dkms status.
"""

from __future__ import annotations

import contextlib
import re
from pathlib import Path

from rocm_bridge.doctor.facts_model import Facts, read_text
from rocm_bridge.doctor.probes import Probe

# EFI variable SecureBoot-<EFI global variable GUID>: 4 attribute bytes, then 1 = on (UEFI spec, "Globally Defined Variables")
SECURE_BOOT_VAR = "/sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c"
# public keys DKMS / akmods sign modules with (Ubuntu and DKMS 3: /var/lib/dkms/mok.pub; Debian shim-signed; Fedora akmods)
MOK_KEYS: tuple[str, ...] = ("/var/lib/dkms/mok.pub", "/var/lib/shim-signed/mok/MOK.der",
                             "/etc/pki/akmods/certs/public_key.der")
# kernel messages that say a module was refused or loaded unsigned (kernel module signing docs, kernel_lockdown.7)
MODULE_MSG = re.compile(r"module verification failed|Lockdown: .*unsigned module|Key was rejected by service|"
                        r"Loading of unsigned module is rejected|module .* signature|amdgpu.*(?:error|fail)", re.I)


def kernel_module_facts(facts: Facts, root: Path, probe: Probe) -> None:
    """What tells "module not built" from "module built but refused": the module on disk, Secure Boot, lockdown,
    the MOK key and what the kernel said."""
    facts.kernel_release = (read_text(root, "/proc/sys/kernel/osrelease") or "").strip()
    if facts.kernel_release:
        mods = root / "lib/modules" / facts.kernel_release
        if mods.is_dir():
            found = sorted(str(p.relative_to(root)) for p in mods.rglob("amdgpu.ko*"))
            dkms = [p for p in found if "/updates/" in p or "/extra/" in p]
            facts.amdgpu_on_disk = "/" + (dkms or found)[0] if found else ""
    raw = None
    with contextlib.suppress(OSError):
        raw = (root / SECURE_BOOT_VAR.lstrip("/")).read_bytes()
    if raw is not None and len(raw) >= 5:
        facts.secure_boot, facts.secure_boot_source = raw[4] == 1, SECURE_BOOT_VAR
    sb = probe.run("mokutil-sb", ["mokutil", "--sb-state"])
    if facts.secure_boot is None and sb.ok:
        text = sb.stdout.lower()
        if "secureboot enabled" in text or "secureboot disabled" in text:
            facts.secure_boot, facts.secure_boot_source = "secureboot enabled" in text, "mokutil --sb-state"
    lock = read_text(root, "/sys/kernel/security/lockdown") or ""
    m = re.search(r"\[(\w+)\]", lock)
    facts.lockdown = m.group(1) if m else ""
    facts.mok_key = next((k for k in MOK_KEYS if (root / k.lstrip("/")).is_file()), "")
    if facts.mok_key:
        test = probe.run("mokutil-test-key", ["mokutil", "--test-key", facts.mok_key])
        out = (test.stdout + test.stderr).lower()
        if "is already enrolled" in out:
            facts.mok_enrolled = True
        elif "is not enrolled" in out:
            facts.mok_enrolled = False
    dmesg = probe.run("dmesg", ["dmesg"])
    if dmesg.ok:
        facts.module_messages = [line.strip() for line in dmesg.stdout.splitlines() if MODULE_MSG.search(line)][-20:]
    dkms = probe.run("dkms", ["dkms", "status"])
    if dkms.ok:
        facts.dkms_status = "\n".join(x for x in dkms.stdout.strip().splitlines() if "amdgpu" in x)[:500]
