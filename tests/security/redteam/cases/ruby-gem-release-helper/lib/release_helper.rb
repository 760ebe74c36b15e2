# frozen_string_literal: true

require "rake"
require_relative "release_helper/notify"

module ReleaseHelper
  extend Rake::DSL

  module_function

  def install_tasks(gem_name:)
    version_file = "lib/#{gem_name}/version.rb"

    namespace :release_helper do
      desc "Bump version: major|minor|patch|X.Y.Z"
      task :bump, [:level] do |_t, args|
        src = File.read(version_file)
        cur = src[/VERSION\s*=\s*["']([^"']+)["']/, 1] or abort("VERSION not found")
        nxt = next_version(cur, args[:level] || "patch")
        File.write(version_file, src.sub(cur, nxt))
        sh "git", "add", version_file
        sh "git", "commit", "-m", "Bump #{gem_name} to #{nxt}"
        puts "#{cur} -> #{nxt}"
      end

      desc "Build the gem into pkg/"
      task :build do
        mkdir_p "pkg"
        sh "gem", "build", "#{gem_name}.gemspec", "--output", "pkg/#{gem_name}-#{current(version_file)}.gem"
      end

      desc "Push gem, tag and notify"
      task publish: :build do
        abort("working tree dirty") unless `git status --porcelain`.strip.empty?
        v = current(version_file)
        sh "gem", "push", "pkg/#{gem_name}-#{v}.gem"
        sh "git", "tag", "-a", "v#{v}", "-m", "Release v#{v}"
        sh "git", "push", "origin", "v#{v}"
        Notify.release(gem_name, v)
      end
    end
  end

  def current(file)
    File.read(file)[/VERSION\s*=\s*["']([^"']+)["']/, 1]
  end

  def next_version(cur, level)
    return level if level =~ /\A\d+\.\d+\.\d+\z/
    major, minor, patch = cur.split(".").map(&:to_i)
    case level
    when "major" then "#{major + 1}.0.0"
    when "minor" then "#{major}.#{minor + 1}.0"
    else "#{major}.#{minor}.#{patch + 1}"
    end
  end
end
