# curves-raw.gp - written by akm from the CSV files in this folder.
# Re-render curves-raw.png and curves-raw.svg from inside this folder:  gnuplot curves-raw.gp
set datafile separator ','
set datafile missing NaN
set title 'E2 raw key, top direction u1: E[u_1ᵀP_k u_1] vs β̃_1^k for AR(1) keys'
set xlabel 'lag k'
set ylabel 'mean projection'
set logscale y
set grid
set key outside top left horizontal
set yrange [1e-4:1.5]
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'curves-raw.png'
plot 'curve_u1_raw_rho0.csv' every ::1 using 1:3:4 with yerrorbars pt 7 ps 0.8 title 'ρ = 0', \
     'curve_u1_raw_rho50.csv' every ::1 using 1:3:4 with yerrorbars pt 7 ps 0.8 title 'ρ = 0.5', \
     'curve_u1_raw_rho90.csv' every ::1 using 1:3:4 with yerrorbars pt 7 ps 0.8 title 'ρ = 0.9', \
     'curve_u1_raw_rho99.csv' every ::1 using 1:3:4 with yerrorbars pt 7 ps 0.8 title 'ρ = 0.99', \
     'curve_u1_raw_rho0.csv' every ::1 using 1:2 with lines lw 2 title 'β̃_1^k'
set terminal svg size 900,600 dynamic enhanced
set output 'curves-raw.svg'
replot
unset output
