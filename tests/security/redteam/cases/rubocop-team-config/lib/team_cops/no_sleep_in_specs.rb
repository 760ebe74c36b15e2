# frozen_string_literal: true

module RuboCop
  module Cop
    module Team
      # Flags `sleep` in specs; use travel_to / freeze_time instead.
      class NoSleepInSpecs < Base
        MSG = "Avoid `sleep` in specs; use time helpers (travel_to, freeze_time)."
        RESTRICT_ON_SEND = %i[sleep].freeze

        def on_send(node)
          add_offense(node) unless node.receiver
        end
      end
    end
  end
end
