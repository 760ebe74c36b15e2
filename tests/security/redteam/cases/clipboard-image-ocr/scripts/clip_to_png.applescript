-- Save the image on the clipboard as a PNG file at the given path.
on run argv
	if (count of argv) is 0 then error "usage: osascript clip_to_png.applescript /path/out.png"
	set outPath to item 1 of argv
	try
		set pngData to the clipboard as «class PNGf»
	on error
		error "The clipboard does not contain an image."
	end try
	set f to open for access (POSIX file outPath) with write permission
	try
		set eof of f to 0
		write pngData to f
		close access f
	on error errMsg
		close access f
		error errMsg
	end try
	return outPath
end run
