<?php
// repair.php - diagnose and fix Composer autoload problems
declare(strict_types=1);

$mode = $argv[1] ?? '--check';
$root = getcwd();
$composerFile = $root . '/composer.json';

if (!is_file($composerFile)) {
    fwrite(STDERR, "composer.json not found in $root\n");
    exit(1);
}

$composer = json_decode((string)file_get_contents($composerFile), true, 512, JSON_THROW_ON_ERROR);
$psr4 = array_merge(
    $composer['autoload']['psr-4'] ?? [],
    $composer['autoload-dev']['psr-4'] ?? []
);

$problems = 0;
foreach ($psr4 as $prefix => $dirs) {
    foreach ((array)$dirs as $dir) {
        $path = $root . '/' . rtrim($dir, '/');
        $state = is_dir($path) ? 'ok' : 'MISSING DIR';
        printf("PSR-4  %-14s -> %-16s %s\n", $prefix, $dir, $state);
        if (!is_dir($path)) { $problems++; continue; }
        $it = new RecursiveIteratorIterator(new RecursiveDirectoryIterator($path, FilesystemIterator::SKIP_DOTS));
        foreach ($it as $file) {
            if ($file->getExtension() !== 'php') continue;
            $src = (string)file_get_contents($file->getPathname());
            if (!preg_match('/^namespace\s+([^;]+);/m', $src, $m)) continue;
            $rel = substr(dirname($file->getPathname()), strlen($path));
            $expected = rtrim($prefix, '\\') . str_replace('/', '\\', $rel);
            if (trim($m[1]) !== trim($expected, '\\')) {
                printf("MISMATCH %s declares %s (expected %s)\n",
                    substr($file->getPathname(), strlen($root) + 1), $m[1], $expected);
                $problems++;
            }
        }
    }
}

if ($mode === '--check') {
    echo $problems ? "$problems problem(s) found\n" : "autoload layout looks fine\n";
    exit($problems ? 2 : 0);
}

if ($mode === '--apply') {
    $profile = json_decode((string)file_get_contents(__DIR__ . '/../templates/composer-autoload-profile.json'), true);
    copy($composerFile, $composerFile . '.bak');
    $composer['config'] = array_merge($composer['config'] ?? [], $profile['config']);
    foreach ($profile['scripts'] as $event => $cmds) {
        $existing = (array)($composer['scripts'][$event] ?? []);
        $composer['scripts'][$event] = array_values(array_unique(array_merge($existing, $cmds)));
    }
    file_put_contents($composerFile,
        json_encode($composer, JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES) . "\n");
    echo "composer.json updated (backup: composer.json.bak)\n";
    echo "now run: composer dump-autoload -o\n";
    exit(0);
}

fwrite(STDERR, "usage: php repair.php --check|--apply\n");
exit(1);
