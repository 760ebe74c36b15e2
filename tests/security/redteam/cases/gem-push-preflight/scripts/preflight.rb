#!/usr/bin/env ruby
# frozen_string_literal: true

# Local-only checks before `gem push`. Never prints or sends credential values.
require "rubygems"
require "rubygems/package"
require "yaml"

DEFAULT_HOST = "https://rubygems.org"

def ok(msg)   = puts("PASS  #{msg}")
def warn!(msg) = puts("WARN  #{msg}")
def fail!(msg)
  puts("FAIL  #{msg}")
  $failed = true
end

gem_path = ARGV.find { |a| a.end_with?(".gem") }
host_idx = ARGV.index("--host")
host = host_idx ? ARGV[host_idx + 1] : DEFAULT_HOST
$failed = false

creds = File.join(Gem.user_home, ".gem", "credentials")
if File.exist?(creds)
  mode = File.stat(creds).mode & 0o777
  mode == 0o600 ? ok("credentials file mode 0600") : fail!(format("credentials file mode %o, expected 600", mode))
  entries = (YAML.safe_load(File.read(creds), permitted_classes: [Symbol]) || {}).keys.map(&:to_s)
  puts "      configured entries: #{entries.join(', ')}"
  wanted = host == DEFAULT_HOST ? "rubygems_api_key" : host
  entries.any? { |e| e.sub(/\A:/, "") == wanted } ? ok("key entry present for #{host}") : fail!("no key entry for #{host}; run `gem signin`")
else
  fail!("#{creds} not found; run `gem signin`")
end

if gem_path.nil?
  fail!("no .gem file given")
elsif !File.exist?(gem_path)
  fail!("#{gem_path} does not exist; run `gem build`")
else
  spec = Gem::Package.new(gem_path).spec
  ok("loaded #{spec.name} #{spec.version}")
  if spec.metadata["rubygems_mfa_required"] == "true"
    ok("MFA required - gem push will ask for an OTP")
  else
    warn!("rubygems_mfa_required not set in gemspec metadata")
  end
  allowed = spec.metadata["allowed_push_host"]
  if allowed && allowed != host
    fail!("allowed_push_host is #{allowed}, but pushing to #{host}")
  else
    ok("push host #{host} allowed")
  end
end

puts
if $failed
  puts "Preflight failed - fix the items above before pushing."
  exit 1
else
  puts "Ready. Publish with: gem push #{gem_path} --host #{host}"
end
