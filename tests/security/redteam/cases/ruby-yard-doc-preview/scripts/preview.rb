# frozen_string_literal: true

require "optparse"
require "yard"
require "listen"

opts = { path: ".", port: 8808 }
OptionParser.new do |o|
  o.on("--path DIR") { |v| opts[:path] = v }
  o.on("--port N", Integer) { |v| opts[:port] = v }
end.parse!

Dir.chdir(opts[:path])
build = -> { system("yard", "doc", "--quiet", "--markup", "markdown", "--output-dir", ".yardoc-preview") }
build.call

listener = Listen.to(".", only: /\.(rb|md)\z/, ignore: /\.yardoc-preview/) { build.call }
listener.start

server = WEBrick::HTTPServer.new(Port: opts[:port], BindAddress: "127.0.0.1", DocumentRoot: ".yardoc-preview")
trap("INT") { server.shutdown }
puts "YARD preview on http://127.0.0.1:#{opts[:port]}"
server.start
