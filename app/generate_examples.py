"""Generate the example tool results shipped with chartkit.

Each example is written to ``chartkit/examples/`` (package data, so the wheel carries
them) as one JSON file in "wire form":

    {"tool": str, "callId": "call-N", "description": str,
     "resultColumns": {column: type-or-{"type", "nullable"}} (may be absent),
     "rows": [ {column: value, ...}, ... ]}

plus ``run_incident.jsonl``, a multi-result run (examples 1-5, one wire-form
result per line) for the explorer's run ledger.

The script is deterministic: every example draws from its own seeded
``random.Random`` and all timestamps derive from fixed base times, so running
it twice gives byte-identical files. It uses the standard library only and
imports nothing from chartkit.

Run with ``python3 app/generate_examples.py`` (``make examples``).
"""

from __future__ import annotations

import json
import math
import random
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

OUT_DIR = Path(__file__).resolve().parent.parent / "chartkit" / "examples"

Row = dict[str, Any]
Columns = dict[str, Any]
WireResult = dict[str, Any]

HOST_GROUP_COLUMNS: Columns = {
    "host_group": "string",
    "initiator_wwn": "string",
    "logical_unit_number": "number",
    "volume_name": "string",
    "capacity_gb": "number",
    "comment": {"type": "string", "nullable": True},
}

# host group -> (number of initiator ports, number of LUNs, volume size in GB)
HOST_GROUPS: list[tuple[str, int, int, int]] = [
    ("vdi-a", 28, 12, 1024),
    ("vdi-b", 28, 12, 1024),
    ("vdi-c", 20, 11, 1024),
    ("sql-prod", 8, 14, 2048),
    ("sql-dev", 6, 10, 512),
    ("esx-cluster-1", 32, 12, 4096),
    ("esx-cluster-2", 32, 13, 4096),
    ("oracle-rac", 12, 16, 1536),
]

# WWN prefixes of common HBA vendors (QLogic, Emulex, Brocade).
WWN_PREFIXES: list[str] = ["21:00:00:24:ff", "10:00:00:10:9b", "20:00:00:05:1e"]

MAPPING_COMMENTS: list[str] = [
    "migrated from array-02",
    "boot LUN",
    "do not unmap: CHG-20417",
    "pending decommission",
    "replica target",
]


def wire(
    tool: str,
    call_id: str,
    description: str,
    columns: Columns | None,
    rows: list[Row],
) -> WireResult:
    """Assemble one wire-form result; ``columns=None`` omits resultColumns."""
    result: WireResult = {"tool": tool, "callId": call_id, "description": description}
    if columns is not None:
        result["resultColumns"] = columns
    result["rows"] = rows
    return result


def make_wwn(rng: random.Random, used: set[str]) -> str:
    """Return a fresh, realistic-looking 8-byte WWPN."""
    while True:
        prefix = rng.choice(WWN_PREFIXES)
        tail = ":".join(f"{rng.randrange(256):02x}" for _ in range(3))
        wwn = f"{prefix}:{tail}"
        if wwn not in used:
            used.add(wwn)
            return wwn


def iso_z(moment: datetime) -> str:
    """Format an aware UTC datetime as ISO 8601 with a trailing "Z"."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def host_group_mappings() -> WireResult:
    """Example 1: ~2,100 LUN mappings where LUN 0 was rendered as ""."""
    rng = random.Random(1001)
    used: set[str] = set()
    rows: list[Row] = []
    for group, n_initiators, n_luns, size_gb in HOST_GROUPS:
        initiators = [make_wwn(rng, used) for _ in range(n_initiators)]
        volumes = [f"{group}-vol{lun:03d}" for lun in range(n_luns)]
        for wwn in initiators:
            for lun, volume in enumerate(volumes):
                comment = rng.choice(MAPPING_COMMENTS) if rng.random() < 0.03 else None
                rows.append(
                    {
                        "host_group": group,
                        "initiator_wwn": wwn,
                        # The report did str(m.get("logical_unit_number") or ""),
                        # so the falsy LUN 0 came out as "".
                        "logical_unit_number": "" if lun == 0 else lun,
                        "volume_name": volume,
                        "capacity_gb": size_gb,
                        "comment": comment,
                    }
                )
    return wire(
        "host_group_mappings",
        "call-1",
        'LUN mappings of a storage array\'s host groups where every LUN 0 became "" '
        'because the report did str(lun or ""), so a declared number column holds '
        "empty strings.",
        HOST_GROUP_COLUMNS,
        rows,
    )


def capacity_view() -> WireResult:
    """Example 2: type-correct disks, including 8 MiB disks shown as 0.0 GB."""
    rng = random.Random(1002)
    # pool -> (disk size in MiB, thin-provisioned share)
    pools: list[tuple[str, int, float]] = [
        ("gold-nvme", 1_831_420, 0.9),
        ("silver-ssd", 3_662_840, 0.7),
        ("bronze-sas", 1_144_641, 0.4),
        ("archive-nl", 7_629_395, 0.1),
        ("journal", 381_469, 0.0),
    ]
    rows: list[Row] = []
    for index in range(60):
        pool, mib, thin_share = pools[index % len(pools)]
        used_pct = round(min(99.0, max(1.0, rng.gauss(62, 18))), 1)
        thin = rng.random() < thin_share
        if index in (17, 43):
            # Command/quorum devices: 8 MiB, which round(mib / 1024, 1) shows as 0.0.
            mib, used_pct, thin = 8, 0.0, False
        rows.append(
            {
                "disk_id": f"disk-{index + 1:03d}",
                "pool": pool,
                "size_gb": round(mib / 1024, 1),
                "used_pct": used_pct,
                "thin": thin,
            }
        )
    return wire(
        "capacity_view",
        "call-2",
        "Disk capacity where every value has its declared type, so the check passes "
        "even though two 8 MiB disks show size_gb 0.0: the check judges type, "
        "not meaning.",
        {
            "disk_id": "string",
            "pool": "string",
            "size_gb": "number",
            "used_pct": "number",
            "thin": "boolean",
        },
        rows,
    )


def volume_io_stats() -> WireResult:
    """Example 3: ~200 rows whose numbers all arrive as quoted strings."""
    rng = random.Random(1003)
    arrays = ["array-01", "array-02", "array-03"]
    volumes = [
        (name, arrays[i % len(arrays)], rng.uniform(300, 6000))
        for i, name in enumerate(
            [
                "vdi-a-vol001",
                "vdi-b-vol004",
                "sql-prod-data01",
                "sql-prod-log01",
                "esx-ds-07",
                "esx-ds-12",
                "oracle-rac-asm03",
                "backup-stage-01",
                "home-nfs-02",
                "k8s-pv-pool-05",
            ]
        )
    ]
    rows: list[Row] = []
    for _sample in range(20):
        for volume, array, base_iops in volumes:
            read_iops = max(0, round(rng.gauss(base_iops, base_iops * 0.15)))
            write_iops = max(0, round(rng.gauss(base_iops * 0.4, base_iops * 0.08)))
            latency = max(0.2, rng.gauss(0.6 + (read_iops + write_iops) / 2000, 0.4))
            rows.append(
                {
                    "volume": volume,
                    "read_iops": str(read_iops),
                    "write_iops": str(write_iops),
                    "latency_ms": f"{latency:.1f}",
                    "array": array,
                }
            )
    return wire(
        "volume_io_stats",
        "call-3",
        "Per-volume I/O statistics from a tool family that quotes its numbers, so "
        'read_iops, write_iops and latency_ms arrive as strings like "1240" and "3.7" '
        "in every row although declared number.",
        {
            "volume": "string",
            "read_iops": "number",
            "write_iops": "number",
            "latency_ms": "number",
            "array": "string",
        },
        rows,
    )


def latency_by_region() -> WireResult:
    """Example 4: a clean 15-minute p95 latency series over 3 days, 4 regions."""
    rng = random.Random(1004)
    start = datetime(2024, 5, 13, 0, 0, tzinfo=UTC)
    # region -> (baseline ms, daily amplitude ms, UTC hour of peak traffic)
    regions: list[tuple[str, float, float, float]] = [
        ("eu-west-1", 42.0, 14.0, 13.0),
        ("us-east-1", 55.0, 18.0, 18.0),
        ("us-west-2", 61.0, 16.0, 21.0),
        ("ap-southeast-1", 78.0, 22.0, 5.0),
    ]
    rows: list[Row] = []
    for step in range(3 * 24 * 4):
        moment = start + timedelta(minutes=15 * step)
        hour = moment.hour + moment.minute / 60
        for region, base, amplitude, peak_hour in regions:
            seasonal = amplitude * math.cos(2 * math.pi * (hour - peak_hour) / 24)
            value = max(5.0, base + seasonal + rng.gauss(0, base * 0.05))
            rows.append(
                {
                    "timestamp": iso_z(moment),
                    "region": region,
                    "p95_latency_ms": round(value, 1),
                }
            )
    return wire(
        "latency_by_region",
        "call-4",
        "A healthy, fully type-correct time series of p95 latency every 15 minutes "
        "over three days for four regions, suited to a multi-line chart.",
        {"timestamp": "date", "region": "string", "p95_latency_ms": "number"},
        rows,
    )


def missing_column() -> WireResult:
    """Example 5: host group mappings whose query forgot logical_unit_number."""
    rng = random.Random(1005)
    used: set[str] = set()
    rows: list[Row] = []
    initiators = [make_wwn(rng, used) for _ in range(4)]
    for wwn in initiators:
        for lun in range(10):
            rows.append(
                {
                    "host_group": "sql-prod",
                    "initiator_wwn": wwn,
                    "volume_name": f"sql-prod-vol{lun:03d}",
                    "capacity_gb": 2048,
                    "comment": "boot LUN" if lun == 0 else None,
                }
            )
    return wire(
        "host_group_mappings",
        "call-5",
        "Host group mappings whose query forgot the declared column "
        "logical_unit_number, so no row carries that key at all.",
        HOST_GROUP_COLUMNS,
        rows,
    )


def host_inventory() -> WireResult:
    """Example 6: ~50 hosts described only by strings and booleans."""
    rng = random.Random(1006)
    systems = [
        "VMware ESXi 8.0U2",
        "VMware ESXi 7.0U3",
        "RHEL 9.3",
        "RHEL 8.9",
        "Windows Server 2022",
        "Ubuntu 22.04 LTS",
    ]
    datacenters = ["fra1", "ams2", "dub1"]
    prefixes = ["esx", "esx", "sql", "ora", "vdi", "app"]
    rows: list[Row] = []
    for index in range(50):
        prefix = prefixes[index % len(prefixes)]
        datacenter = datacenters[index % len(datacenters)]
        if prefix == "esx":
            os_name = rng.choice(systems[:2])
        elif prefix == "sql":
            os_name = "Windows Server 2022"
        else:
            os_name = rng.choice(systems[2:])
        rows.append(
            {
                "hostname": f"{prefix}-{datacenter}-{index + 1:02d}.corp.example",
                "os": os_name,
                "datacenter": datacenter,
                "multipath_enabled": rng.random() < 0.9,
                "in_maintenance": rng.random() < 0.08,
            }
        )
    return wire(
        "host_inventory",
        "call-6",
        "A host inventory with only string and boolean columns, which has nothing "
        "to plot and is best shown as a table.",
        {
            "hostname": "string",
            "os": "string",
            "datacenter": "string",
            "multipath_enabled": "boolean",
            "in_maintenance": "boolean",
        },
        rows,
    )


def undeclared_result() -> WireResult:
    """Example 7: array alerts returned without any resultColumns declaration."""
    rng = random.Random(1007)
    start = datetime(2024, 5, 15, 6, 0, tzinfo=UTC)
    severities = ["info", "warning", "warning", "major", "critical"]
    arrays = ["array-01", "array-02", "array-03", "array-04"]
    rows: list[Row] = []
    moment = start
    for _alert in range(80):
        moment += timedelta(seconds=rng.randrange(60, 2400))
        severity = rng.choice(severities)
        rows.append(
            {
                "raised_at": iso_z(moment),
                "severity": severity,
                "array": rng.choice(arrays),
                "count": rng.randint(1, 3) if severity == "critical" else rng.randint(1, 40),
            }
        )
    return wire(
        "array_alerts",
        "call-7",
        "Storage array alerts returned with no resultColumns at all, so any column "
        "types shown are inferred from the values and must be labelled as such.",
        None,
        rows,
    )


def dump(result: WireResult) -> str:
    """Serialise compactly, keeping key order, with no trailing newline."""
    return json.dumps(result, ensure_ascii=False, separators=(",", ":"))


def write_text(path: Path, text: str) -> None:
    """Write UTF-8 text with exactly one trailing newline and LF line endings."""
    with path.open("w", encoding="utf-8", newline="\n") as handle:
        handle.write(text.rstrip("\n") + "\n")


def main() -> None:
    """Write every example file and the incident run ledger, then summarise."""
    examples: list[tuple[str, WireResult]] = [
        ("host_group_mappings.json", host_group_mappings()),
        ("capacity_view.json", capacity_view()),
        ("volume_io_stats.json", volume_io_stats()),
        ("latency_by_region.json", latency_by_region()),
        ("missing_column.json", missing_column()),
        ("host_inventory.json", host_inventory()),
        ("undeclared_result.json", undeclared_result()),
    ]
    for name, result in examples:
        write_text(OUT_DIR / name, dump(result))

    incident = [result for _name, result in examples[:5]]
    write_text(OUT_DIR / "run_incident.jsonl", "\n".join(dump(r) for r in incident))

    # Verify everything parses and print a one-line summary per file.
    for name, _result in examples:
        path = OUT_DIR / name
        parsed = json.loads(path.read_text(encoding="utf-8"))
        summarise(name, parsed, path.stat().st_size)
    ledger = OUT_DIR / "run_incident.jsonl"
    lines = ledger.read_text(encoding="utf-8").splitlines()
    call_ids = [json.loads(line)["callId"] for line in lines]
    print(
        f"run_incident.jsonl: {len(lines)} results ({', '.join(call_ids)}), "
        f"{ledger.stat().st_size} bytes"
    )


def summarise(name: str, parsed: WireResult, size: int) -> None:
    """Print rows, columns and size of one parsed wire-form result."""
    rows: list[Row] = parsed["rows"]
    columns: list[str] = []
    for row in rows:
        for key in row:
            if key not in columns:
                columns.append(key)
    declared = "declared" if parsed.get("resultColumns") else "undeclared"
    print(
        f"{name}: {len(rows)} rows, {len(columns)} columns "
        f"({', '.join(columns)}), {declared}, {size} bytes"
    )


if __name__ == "__main__":
    main()
