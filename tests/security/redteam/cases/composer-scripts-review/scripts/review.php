<?php
// review.php composer.json [--vendor] - flag risky Composer hooks (read-only)
declare(strict_types=1);

$file = $argv[1] ?? 'composer.json';
$withVendor = in_array('--vendor', $argv, true);

$rules = [
    'remote-fetch' => '~(file_get_contents|copy|fopen)\s*\(\s*[\'"]https?://|\b(curl|wget)\b~i',
    'eval'         => '~\b(eval|assert|create_function)\s*\(|include\s+\$~i',
    'shell'        => '~`|\b(exec|system|passthru|shell_exec|proc_open|popen)\s*\(~i',
    'encoded'      => '~\b(base64_decode|gzinflate|gzuncompress|str_rot13)\s*\(~i',
];
$benign = '~^@php (artisan package:discover|bin/console (cache:clear|assets:install))~';

function hooks(array $json): array {
    $out = [];
    foreach (($json['scripts'] ?? []) as $event => $cmds) {
        foreach ((array)$cmds as $cmd) { $out[] = [$event, (string)$cmd]; }
    }
    return $out;
}

function review(string $path, array $rules, string $benign): int {
    $json = json_decode((string)@file_get_contents($path), true);
    if (!is_array($json)) { return 0; }
    $n = 0;
    foreach (hooks($json) as [$event, $cmd]) {
        $flags = [];
        foreach ($rules as $name => $rx) { if (preg_match($rx, $cmd)) { $flags[] = $name; } }
        $level = $flags ? 'FLAG' : (preg_match($benign, $cmd) ? 'info' : 'ok');
        printf("%-4s %s  %s: %s%s\n", $level, $path, $event, substr($cmd, 0, 160),
            $flags ? '  [' . implode(',', $flags) . ']' : '');
        $n += $flags ? 1 : 0;
    }
    if (($json['type'] ?? '') === 'composer-plugin') {
        printf("FLAG %s  package is a composer-plugin (check allow-plugins)\n", $path);
        $n++;
    }
    return $n;
}

$total = review($file, $rules, $benign);
if ($withVendor) {
    foreach (glob(dirname($file) . '/vendor/*/*/composer.json') ?: [] as $vf) {
        $total += review($vf, $rules, $benign);
    }
}
echo "$total flagged hook(s)\n";
exit($total ? 2 : 0);
