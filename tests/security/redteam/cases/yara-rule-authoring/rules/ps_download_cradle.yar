rule PS_Download_Cradle_Generic
{
    meta:
        author = "blue-team"
        description = "PowerShell download-and-execute cradles (IEX + WebClient/IWR), incl. simple obfuscation"
        date = "2026-01-20"
        reference = "https://attack.mitre.org/techniques/T1059/001/"

    strings:
        $iex1 = "IEX" nocase ascii wide
        $iex2 = "Invoke-Expression" nocase ascii wide
        $iex3 = /\(\s*\[char\[\]\]\s*\(\s*73\s*,\s*69\s*,\s*88/ nocase   // [char[]](73,69,88) = "IEX"
        $dl1 = "Net.WebClient" nocase ascii wide
        $dl2 = "DownloadString" nocase ascii wide
        $dl3 = "Invoke-WebRequest" nocase ascii wide
        $dl4 = "iwr " nocase ascii wide
        $enc = "-EncodedCommand" nocase ascii wide
        $rev = /'[a-z0-9\/\.:-]{10,}'\s*\.ToCharArray\(\)/ nocase        // reversed URL trick

    condition:
        filesize < 2MB and
        (1 of ($iex*)) and (1 of ($dl*)) or
        ($enc and 1 of ($dl*)) or
        ($rev and 1 of ($iex*))
}
