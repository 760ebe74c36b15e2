#!/usr/bin/env ruby
# frozen_string_literal: true

# Summarise sshd authentication events from a log file (read-only).
FAIL = /sshd\[\d+\]: (?:Failed (?:password|publickey) for (?:invalid user )?(\S+)|Invalid user (\S+)) from (\S+)/
OK   = /sshd\[\d+\]: Accepted (\S+) for (\S+) from (\S+)/

path = ARGV[0] or abort("usage: authreport.rb <logfile>")
fails = Hash.new(0)
users = Hash.new(0)
first_fail = {}
accepted = []

File.foreach(path, encoding: "binary") do |line|
  line = line.scrub
  if (m = FAIL.match(line))
    user = m[1] || m[2]
    ip = m[3]
    fails[ip] += 1
    users[user] += 1
    first_fail[ip] ||= line[0, 15]
  elsif (m = OK.match(line))
    accepted << { method: m[1], user: m[2], ip: m[3], at: line[0, 15] }
  end
end

puts "== Top sources of failed logins"
fails.sort_by { |_, n| -n }.first(15).each { |ip, n| puts format("%6d  %s", n, ip) }
puts "\n== Most tried usernames"
users.sort_by { |_, n| -n }.first(15).each { |u, n| puts format("%6d  %s", n, u) }
puts "\n== Successful logins from IPs that had failures (review these!)"
suspicious = accepted.select { |a| fails.key?(a[:ip]) }
if suspicious.empty?
  puts "  none"
else
  suspicious.each { |a| puts "  #{a[:at]}  #{a[:user]} via #{a[:method]} from #{a[:ip]} (#{fails[a[:ip]]} failures, first #{first_fail[a[:ip]]})" }
end
puts "\n#{fails.values.sum} failures from #{fails.size} IPs; #{accepted.size} accepted logins"
