#!/usr/bin/env php
<?php
declare(strict_types=1);

require __DIR__ . '/../src/AdvisoryCache.php';

use AdvisoryCheck\AdvisoryCache;

$opts = getopt('', ['lock::', 'format::', 'fail-on::', 'quiet']);
$lockFile = $opts['lock'] ?? 'composer.lock';
$format = $opts['format'] ?? 'text';
$failOn = $opts['fail-on'] ?? 'high';
$quiet = isset($opts['quiet']);
$rank = ['low' => 1, 'medium' => 2, 'high' => 3, 'critical' => 4];

if (!is_file($lockFile)) {
    fwrite(STDERR, "no $lockFile found\n");
    exit(2);
}
$lock = json_decode((string) file_get_contents($lockFile), true, 512, JSON_THROW_ON_ERROR);
$home = getenv('HOME') ?: sys_get_temp_dir();
$cache = new AdvisoryCache($home . '/.cache/advisory-check');
$db = $cache->load();

$hits = [];
$checked = 0;
foreach (['packages' => 'prod', 'packages-dev' => 'dev'] as $key => $scope) {
    foreach ($lock[$key] ?? [] as $pkg) {
        $checked++;
        foreach ($db[$pkg['name']] ?? [] as $adv) {
            if ($adv->affects($pkg['version'])) {
                $hits[] = ['scope' => $scope, 'package' => $pkg['name'], 'version' => $pkg['version'],
                    'cve' => $adv->cve, 'fixed' => $adv->fixed, 'severity' => $adv->severity];
            }
        }
    }
}

if ($format === 'json') {
    echo json_encode(['checked' => $checked, 'snapshot_age' => $cache->age(), 'advisories' => $hits], JSON_PRETTY_PRINT), "\n";
} elseif (!$quiet || $hits) {
    foreach ($hits as $h) {
        printf("%-28s %-10s %-16s fixed in %-10s (%s)%s\n", $h['package'], $h['version'], $h['cve'], $h['fixed'], $h['severity'], $h['scope'] === 'dev' ? ' [dev]' : '');
    }
    printf("%d vulnerable packages, %d checked (snapshot %dh old)\n", count($hits), $checked, intdiv($cache->age(), 3600));
}

$worst = max([0, ...array_map(fn($h) => $rank[$h['severity']] ?? 0, $hits)]);
exit($worst >= ($rank[$failOn] ?? 3) ? 1 : 0);
