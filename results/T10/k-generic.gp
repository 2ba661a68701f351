# k-generic.gp - written by akm from the CSV files in this folder.
# Re-render k-generic.png and k-generic.svg from inside this folder:  gnuplot k-generic.gp
set datafile separator ','
set datafile missing NaN
set title 'T10 generic w*: |K_{ij}|/√(K_{ii}K_{jj}) in Σ''s eigenbasis (colour capped at 0.25)'
set xlabel 'i'
set ylabel 'j'
set grid
set key outside top left horizontal
set palette defined (0 '#f7f7f7', 0.5 '#fdae61', 1 '#b2182b')
set cbrange [0:0.25]
set xrange [0.5:32.5]
set yrange [32.5:0.5]
set size ratio -1
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'k-generic.png'
plot 'data_k_generic.csv' every ::1 using 1:2:3 with image notitle
set terminal svg size 900,600 dynamic enhanced
set output 'k-generic.svg'
replot
unset output
