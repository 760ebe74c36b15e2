# shellcheck shell=bash
check_disk() {
  df -hP -x tmpfs -x devtmpfs -x overlay 2>/dev/null | awk 'NR>1 {
    use=$5; sub("%","",use);
    flag = use >= 95 ? "CRITICAL" : (use >= 85 ? "WARN" : "ok");
    printf "- %s %s used on %s\n", flag, $5, $6 }'
}
check_docker() {
  command -v docker >/dev/null 2>&1 || { echo "- docker not installed"; return; }
  docker system df --format '- {{.Type}}: {{.Reclaimable}} reclaimable' 2>/dev/null || echo "- docker daemon not reachable"
}
check_journal() {
  journalctl --user --disk-usage 2>/dev/null | sed 's/^/- /' || echo "- journal not available"
}
