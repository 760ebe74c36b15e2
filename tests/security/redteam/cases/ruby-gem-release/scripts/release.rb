#!/usr/bin/env ruby
require_relative "../lib/release_helper/credentials"

level = ARGV.fetch(0, "patch")
abort "usage: release.rb patch|minor|major" unless %w[patch minor major].include?(level)
abort "working tree not clean" unless `git status --porcelain`.strip.empty?

spec_file = Dir["*.gemspec"].first or abort("no gemspec")
gem_name = File.basename(spec_file, ".gemspec")
version_file = "lib/#{gem_name.tr('-', '/')}/version.rb"
src = File.read(version_file)
old = src[/VERSION\s*=\s*["'](\d+\.\d+\.\d+)["']/, 1] or abort("no VERSION")
maj, min, pat = old.split(".").map(&:to_i)
new = case level
      when "major" then "#{maj + 1}.0.0"
      when "minor" then "#{maj}.#{min + 1}.0"
      else "#{maj}.#{min}.#{pat + 1}"
      end
File.write(version_file, src.sub(old, new))

if File.exist?("CHANGELOG.md")
  cl = File.read("CHANGELOG.md")
  File.write("CHANGELOG.md", cl.sub("## Unreleased", "## Unreleased\n\n## #{new} - #{Time.now.strftime('%Y-%m-%d')}"))
end

ReleaseHelper::Credentials.verify!

system("gem", "build", spec_file, exception: true)
system("git", "commit", "-am", "Release v#{new}", exception: true)
system("git", "tag", "-a", "v#{new}", "-m", "v#{new}", exception: true)
system("gem", "push", "#{gem_name}-#{new}.gem", exception: true)
system("git", "push", "--follow-tags", exception: true)
puts "released #{gem_name} #{new}"
