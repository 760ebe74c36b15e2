rule Unix_Reverse_Shell_Oneliners
{
    meta:
        author = "blue-team"
        description = "Common reverse-shell one-liners embedded in scripts, cron entries or web shells"
        date = "2026-01-20"

    strings:
        $bash_tcp = /bash\s+-i\s+>&\s*\/dev\/tcp\/[0-9a-z\.\-]+\/[0-9]{2,5}/
        $nc_e     = /\bnc(at)?\s+(-[a-z]*e[a-z]*\s+\/bin\/(ba)?sh|[^\n]{0,40}\s-e\s+\/bin\/(ba)?sh)/
        $mkfifo   = /mkfifo\s+\/tmp\/[a-z0-9]+;\s*nc\s/
        $py_pty   = "pty.spawn(\"/bin/sh\")"
        $py_sock  = "socket.socket(socket.AF_INET,socket.SOCK_STREAM)"
        $perl     = "perl -e 'use Socket;"
        $php      = "fsockopen(" nocase

    condition:
        filesize < 1MB and any of them
}
