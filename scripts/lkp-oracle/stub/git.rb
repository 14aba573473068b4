# SPDX-License-Identifier: GPL-2.0
# Stands in for the git gem (not packaged in Debian), which lkp-tests loads;
# its compare of matrices never opens a repository.
module Git
  def self.init(*); end
  def self.open(*); end
  def self.bare(*); end
  def self.clone(*); end
  class Base; def initialize(o = {}); end; def revparse(*); end; def lib; end; def gcommit(*); end; end
  class Lib; def initialize(*); end; def command(*); end; end
  class Author; def initialize(*); end; end
  class Object
    class AbstractObject; def initialize(*); end; end
    class Commit < AbstractObject; def release_tag; end; def last_release_tag; end; def last_release; end; end
    class Tag < AbstractObject; end
    class Tree < AbstractObject; end
    class Blob < AbstractObject; end
  end
end
